import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_RATE_LIMITS } from './accountFixtures.ts';
import { api, expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import {
  createApplication,
  errorEvents,
  fieldnotesVersion,
  fixture,
  resultEvents,
  sessionOf,
  streamEvents,
  uploadForm,
} from './applicationFixtures.ts';
import { recordKeyLeftRunning, startTestServer, type TestServer } from './harness.ts';

/**
 * Two server instances on one PostgreSQL database, as behind a load balancer: a session opened on one is good
 * on the other, and an Idempotency-Key used on one is honoured by the other (kept answer, 422, 409) — the keys
 * live in the database, not in an instance's memory. Needs DATABASE_URL (`.ci/run` sets it for the server suite).
 */

const ADMIN = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres)
  console.info(
    'idempotencyInstances.test.ts skipped: two instances need a shared PostgreSQL — set DATABASE_URL (as .ci/run does)',
  );

describe.skipIf(!onPostgres)('two server instances on one PostgreSQL database', () => {
  let first: TestServer;
  let second: TestServer;
  /** The same session, as seen through each instance. */
  let onFirst: ApiClient;
  let onSecond: ApiClient;
  let token: string;

  beforeAll(async () => {
    first = await startTestServer({ admin: ADMIN, ...GENEROUS_RATE_LIMITS });
    second = await startTestServer({ admin: ADMIN, ...GENEROUS_RATE_LIMITS, databaseUrl: first.databaseUrl });
    const session = await sessionOf(first, { ...ADMIN, id: '' });
    onFirst = session.client;
    token = session.token;
    onSecond = api(second, { authorization: `Bearer ${token}` });
  });
  afterAll(async () => {
    try {
      expectNoLeakInRecordedAnswers();
    } finally {
      // The second leaves the database to the first, which drops it.
      await second?.close();
      await first?.close();
    }
  });

  const versionsOf = async (name: string) =>
    ((await onFirst.get(`/applications/${name}`)).body.versions as Array<{ version: string }>)
      .map((v) => v.version)
      .sort();

  it('run on the same database, with different ports and data folders', () => {
    expect(second.databaseUrl).toBe(first.databaseUrl);
    expect(second.url).not.toBe(first.url);
    expect(second.dataDir).not.toBe(first.dataDir);
  });

  it('accept on one instance the session opened on the other, and revoke it everywhere at logout', async () => {
    expect((await onFirst.get('/me')).body.login).toBe('root');
    const me = await onSecond.get('/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.login).toBe('root');
    // The cookie the first instance set works on the second too.
    const cookie = await sessionOf(first, { ...ADMIN, id: '' });
    const cookieOnSecond = api(second, { cookie: `terrain_session=${cookie.token}` });
    expect((await cookieOnSecond.get('/me')).status).toBe(200);
    expect((await cookieOnSecond.delete('/logout')).status).toBe(200);
    expect((await api(first, { authorization: `Bearer ${cookie.token}` }).get('/me')).status).toBe(401);
  });

  it('answer a replay on the other instance with the kept answer, and 422 to another payload', async () => {
    const headers = { 'Idempotency-Key': 'two-instances-create' };
    const created = await onFirst.post('/applications/twice_one', {
      body: uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    expect(created.status, created.text).toBe(200);
    expect(resultEvents(streamEvents(created.text))).toEqual([
      expect.objectContaining({ name: 'twice_one', version: '1.0.0' }),
    ]);

    const replayed = await onSecond.post('/applications/twice_one', {
      body: uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    expect(replayed.status, replayed.text).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.headers.get('content-type')).toContain('application/x-ndjson');
    expect(replayed.text).toBe(created.text);

    const other = await onSecond.post('/applications/twice_one', {
      body: uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), { comment: 'another' }),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await versionsOf('twice_one')).toEqual(['1.0.0']);

    // Without the key, the same creation is a new request, refused since the application exists.
    const fresh = await onSecond.post('/applications/twice_one', {
      body: uploadForm('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
    });
    expect(fresh.status).toBe(409);
  });

  it('hold a key left running without an instance (taken before instances were recorded) until its lease runs out', async () => {
    await createApplication(onFirst, 'twice_orphan');
    const userId = (await onFirst.get('/me')).body.id as string;
    const path = '/api/v1/applications/twice_orphan/configuration';
    const headers = { 'Idempotency-Key': 'two-instances-orphan' };
    // The first instance took the key and died before answering: the row stays `running`, locked for a while.
    await first.server.ctx.db
      .insertInto('idempotency_keys')
      .values({
        scope: userId,
        key: headers['Idempotency-Key'],
        method: 'POST',
        path,
        fingerprint: null,
        status: 'running',
        locked_until: new Date(Date.now() + 60_000),
        expires_at: new Date(Date.now() + 3_600_000),
      })
      .execute();
    const send = () =>
      onSecond.post('/applications/twice_orphan/configuration', {
        body: uploadForm('orphan.yaml', fieldnotesVersion('1.0.1')),
        headers,
      });
    const held = await send();
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(await versionsOf('twice_orphan')).toEqual(['1.0.0']);

    await first.server.ctx.db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('key', '=', headers['Idempotency-Key'])
      .execute();
    const taken = await send();
    expect(taken.status, taken.text).toBe(200);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(resultEvents(streamEvents(taken.text))).toEqual([expect.objectContaining({ version: '1.0.1' })]);
    const replayed = await onFirst.post('/applications/twice_orphan/configuration', {
      body: uploadForm('orphan.yaml', fieldnotesVersion('1.0.1')),
      headers,
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(taken.text);
    expect(await versionsOf('twice_orphan')).toEqual(['1.0.0', '1.0.1']);
  });

  it('let another instance take over at once the key of an instance that stopped, and the key of one fallen silent', async () => {
    await createApplication(onFirst, 'twice_gone');
    const third = await startTestServer({ admin: ADMIN, ...GENEROUS_RATE_LIMITS, databaseUrl: first.databaseUrl });
    const userId = (await onFirst.get('/me')).body.id as string;
    const path = '/api/v1/applications/twice_gone/configuration';
    const runningOn = (instance: string, key: string) =>
      recordKeyLeftRunning(first, { scope: userId, key, path, instance });
    const send = (version: string, key: string) =>
      onSecond.post('/applications/twice_gone/configuration', {
        body: uploadForm(`gone-${version}.yaml`, fieldnotesVersion(version)),
        headers: { 'Idempotency-Key': key },
      });

    // A request the third instance runs holds its key while the instance lives; once it stops, the key is free.
    await runningOn(third.server.instance.id, 'stopped-instance');
    expect((await send('1.0.1', 'stopped-instance')).status).toBe(409);
    await third.close();
    const afterStop = await send('1.0.1', 'stopped-instance');
    expect(afterStop.status, afterStop.text).toBe(200);

    // An instance killed keeps its row, but its heartbeat stops: silent past its time, it is gone.
    await first.server.ctx.db
      .insertInto('server_instances')
      .values({ id: 'killed-instance', alive_until: new Date(Date.now() - 1000) })
      .execute();
    await runningOn('killed-instance', 'killed-instance');
    const afterKill = await send('1.0.2', 'killed-instance');
    expect(afterKill.status, afterKill.text).toBe(200);
    expect(await versionsOf('twice_gone')).toEqual(['1.0.0', '1.0.1', '1.0.2']);
  });

  it('let exactly one of two concurrent requests with the same key, one on each instance, apply', async () => {
    await createApplication(onFirst, 'twice_race');
    const outcomes: string[] = [];
    for (let round = 1; round <= 6; round++) {
      const version = `1.0.${round}`;
      const headers = { 'Idempotency-Key': `two-instances-race-${round}` };
      const send = (client: ApiClient) =>
        client.post('/applications/twice_race/configuration', {
          body: uploadForm(`race-${version}.yaml`, fieldnotesVersion(version)),
          headers,
        });
      // Alternate which instance gets the first word.
      const [a, b] =
        round % 2 === 0
          ? await Promise.all([send(onFirst), send(onSecond)])
          : (await Promise.all([send(onSecond), send(onFirst)])).reverse();
      const answers = [a, b];
      const ran = answers.filter((x) => x.status === 200 && x.headers.get('idempotent-replayed') === null);
      const replays = answers.filter((x) => x.status === 200 && x.headers.get('idempotent-replayed') === 'true');
      const busy = answers.filter((x) => x.status === 409);
      expect(ran, answers.map((x) => `${x.status} ${x.text.slice(0, 200)}`).join('\n')).toHaveLength(1);
      expect(replays.length + busy.length).toBe(1);
      for (const x of busy) expect(x.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      for (const x of replays) expect(x.text).toBe(ran[0].text);
      const events = streamEvents(ran[0].text);
      expect(errorEvents(events)).toEqual([]);
      expect(resultEvents(events)).toEqual([expect.objectContaining({ version })]);
      outcomes.push(busy.length === 1 ? '409' : 'replay');

      // The one that was told 409 tries again later, on either instance: it gets the kept answer.
      const later = await send(round % 2 === 0 ? onSecond : onFirst);
      expect(later.status).toBe(200);
      expect(later.headers.get('idempotent-replayed')).toBe('true');
      expect(later.text).toBe(ran[0].text);
    }
    expect(await versionsOf('twice_race')).toEqual(['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4', '1.0.5', '1.0.6']);
    console.info(`two instances, same key at once: ${outcomes.join(', ')}`);
  });
});
