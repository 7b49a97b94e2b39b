import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type Database } from '../../server/db/database.ts';
import { startJobRunner, type Job } from '../../server/jobs/jobs.ts';
import { ApiClient, expectNoLeakInRecordedAnswers } from './apiClient.ts';
import { scratchDatabase } from '../scratchDatabase.ts';
import { startInstanceProcess, type InstanceProcess } from './instanceProcesses.ts';

/**
 * Scale-out: two server processes on one PostgreSQL database, as behind a reverse proxy that sends each request
 * wherever it likes. They share no memory, so everything a user does must hold when consecutive calls land on
 * different instances: the account life cycle, the session, an application, a reference, a deposit, its
 * publication (a job either instance may run), reading, an idempotent replay, logout, rate limits. Also proven
 * here: instances starting together on an empty database (migrations under a lock, one administrator), and job
 * runners of two pools taking each job exactly once. Needs DATABASE_URL (`.ci/run` sets it for the server suite).
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres)
  console.info(
    'scaleOut.test.ts skipped: several instances need a shared PostgreSQL — set DATABASE_URL (as .ci/run does)',
  );

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));

function form(fileName: string, bytes: Uint8Array, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName);
  return data;
}

const JUNE = 'alps~lac_blanc~01-06-2024~30-06-2024.csv';
const june = {
  binaryfiledataset: {
    datatype: 'counts',
    requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
    from: '2024-06-01 00:00:00',
    to: '2024-06-30 23:59:59',
    comment: 'june',
  },
};
const IDENTITY = { login: 'scaled_user', password: 'Scaled-password-1', email: 'scaled@terrain.test' };
/** Sign-in attempts per login and window, counted over both instances together. */
const PER_LOGIN = 4;

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL database', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: InstanceProcess;
  let b: InstanceProcess;
  const on = (instance: InstanceProcess, headers: Record<string, string> = {}) =>
    new ApiClient(`${instance.url}/api/v1`, headers);
  const withCookie = (instance: InstanceProcess, token: string) => on(instance, { cookie: `terrain_session=${token}` });
  let adminPassword: string;
  let token: string;

  beforeAll(async () => {
    scratch = await scratchDatabase(process.env.DATABASE_URL!, 'terrain_test');
    const env = { LOGIN_RATE_LIMIT_PER_LOGIN: String(PER_LOGIN), LOGIN_RATE_LIMIT_PER_ADDRESS: '10000' };
    // Started together on an empty database: both run the migrations and both try to create the administrator.
    [a, b] = await Promise.all([startInstanceProcess(scratch.url, env), startInstanceProcess(scratch.url, env)]);
  }, 120_000);
  afterAll(async () => {
    try {
      expectNoLeakInRecordedAnswers();
    } finally {
      await Promise.all([a?.stop(), b?.stop()]);
      await scratch?.drop();
    }
  });

  it('start together on an empty database: one migrates, the other waits; exactly one creates the administrator and shows its password', async () => {
    const announcements = () =>
      [a, b].map((x) => x.output().match(/with login "admin" and password "([^"]+)"/)?.[1]).filter(Boolean) as string[];
    // The announcement is printed just after the "running" line a start waits for: it may reach the pipe a little later.
    for (const until = Date.now() + 10_000; announcements().length === 0 && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const announced = announcements();
    expect(announced, `${a.output()}\n---\n${b.output()}`).toHaveLength(1);
    adminPassword = announced[0];
    for (const instance of [a, b])
      expect((await on(instance).post('/login', { form: { login: 'admin', password: adminPassword } })).status).toBe(
        200,
      );
    expect(a.port).not.toBe(b.port);
  });

  it('register on A with the key mailed by A, activate on B, sign in on A and use the session (cookie) on B', async () => {
    expect((await on(a).post('/users', { form: IDENTITY })).status).toBe(201);
    const key = (await a.mails()).find((m) => m.to === IDENTITY.email)?.key;
    expect(key).toBeDefined();
    expect(await b.mails()).toEqual([]);
    const activated = await on(b).put('/users', {
      json: { login: IDENTITY.login, password: IDENTITY.password, verificationKey: key },
    });
    expect(activated.status, activated.text).toBe(200);

    const signedIn = await on(a).post('/login', { form: { login: IDENTITY.login, password: IDENTITY.password } });
    expect(signedIn.status).toBe(200);
    token = signedIn.headers.get('authorization')!.replace(/^Bearer /, '');
    const me = await withCookie(b, token).get('/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body.login).toBe(IDENTITY.login);
  });

  it('let the administrator signed in on B grant a creator pattern that A honours: the application is created on A', async () => {
    const admin = on(b);
    expect((await admin.post('/login', { form: { login: 'admin', password: adminPassword } })).status).toBe(200);
    const granted = await admin.put(
      `/authorization/applicationCreator?${new URLSearchParams({ userIdOrLogin: IDENTITY.login, applicationPattern: 'surveys' })}`,
    );
    expect(granted.status, granted.text).toBe(200);
    const created = await withCookie(a, token).post('/applications/surveys', {
      body: form('surveys.yaml', file('configurations/surveys.yaml')),
    });
    expect(created.status, created.text).toBe(200);
    expect(created.text).toContain('"type":"result"');
    expect(created.text).not.toContain('"type":"error"');
  });

  it('upload references on B, alternating, and see their rows on A', async () => {
    const references: Array<[string, string, InstanceProcess]> = [
      ['projects', 'surveys-projects.csv', b],
      ['sites', 'surveys-sites.csv', a],
      ['species', 'surveys-species.csv', b],
    ];
    for (const [reference, csv, instance] of references) {
      const answer = await withCookie(instance, token).post(`/applications/surveys/references/${reference}`, {
        body: form(csv, file(`csv/${csv}`)),
      });
      expect(answer.status, answer.text).toBe(201);
    }
    const projects = await withCookie(a, token).get('/applications/surveys/references/projects');
    expect(projects.body.totalRows).toBe(2);
  });

  it('deposit on A with an Idempotency-Key, replay the same deposit on B: the kept answer, one version', async () => {
    const headers = { 'Idempotency-Key': 'scale-out-deposit-june' };
    const deposited = await withCookie(a, token).post('/applications/surveys/data/counts', {
      body: form(JUNE, file(`csv/${JUNE}`), june),
      headers,
    });
    expect(deposited.status, deposited.text).toBe(201);
    const replayed = await withCookie(b, token).post('/applications/surveys/data/counts', {
      body: form(JUNE, file(`csv/${JUNE}`), june),
      headers,
    });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(deposited.text);
    const versions = await withCookie(b, token).get('/applications/surveys/filesOnRepository/counts');
    expect(versions.body).toHaveLength(1);
    expect(versions.body[0].id).toBe(deposited.body.fileId);
  });

  it('publish on B (a job either instance may run) and read the published rows and their export on A', async () => {
    const fileId = (
      (await withCookie(a, token).get('/applications/surveys/filesOnRepository/counts')).body as Array<{ id: string }>
    )[0].id;
    const publish = await withCookie(b, token).post('/applications/surveys/data/counts', {
      json: { fileid: fileId, topublish: true },
    });
    expect(publish.status, publish.text).toBe(202);
    let state: any;
    for (let wait = 0; wait < 300; wait++) {
      state = (await withCookie(wait % 2 ? a : b, token).get(`/applications/surveys/file/${fileId}/publication-state`))
        .body;
      if (state.job && ['done', 'failed'].includes(state.job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state.job.status, JSON.stringify(state)).toBe('done');
    expect(state.published).toBe(true);
    const rows = await withCookie(a, token).get('/applications/surveys/data/counts/json');
    expect(rows.body.totalRows).toBe(3);
    const csv = await withCookie(a, token).get('/applications/surveys/data/counts/csv');
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toHaveLength(4);
  });

  it('update a configuration on B that A has read: A answers the new model at once', async () => {
    const admin = on(b);
    expect((await admin.post('/login', { form: { login: 'admin', password: adminPassword } })).status).toBe(200);
    const componentsOnA = async () => {
      const model = (await withCookie(a, token).get('/applications/fieldnotes_scaled?filter=CONFIGURATION')).body
        .configuration;
      return model.data
        .find((d: { name: string }) => d.name === 'counts')
        .components.map((c: { key: string }) => c.key);
    };
    await admin.put(
      `/authorization/applicationCreator?${new URLSearchParams({ userIdOrLogin: IDENTITY.login, applicationPattern: 'fieldnotes_scaled' })}`,
    );
    const created = await withCookie(a, token).post('/applications/fieldnotes_scaled', {
      body: form('fieldnotes-v1.yaml', file('configurations/fieldnotes-v1.yaml')),
    });
    expect(created.text).toContain('"type":"result"');
    expect(await componentsOnA()).not.toContain('observer');
    const updated = await withCookie(b, token).post('/applications/fieldnotes_scaled/configuration', {
      body: form('fieldnotes-v2.yaml', file('configurations/fieldnotes-v2.yaml')),
    });
    expect(updated.text).toContain('"type":"result"');
    expect(await componentsOnA()).toContain('observer');
  });

  it('count failed sign-ins on one login over both instances together', async () => {
    const guess = (instance: InstanceProcess) =>
      on(instance).post('/login', { form: { login: 'nobody_here', password: 'guess' } });
    for (let attempt = 1; attempt <= PER_LOGIN; attempt++)
      expect((await guess(attempt % 2 ? a : b)).status, `attempt ${attempt}`).toBe(401);
    const refused = await guess(a);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect((await guess(b)).status).toBe(429);
  });

  it('log out on B: the cookie no longer works on A', async () => {
    expect((await withCookie(b, token).delete('/logout')).status).toBe(200);
    expect((await withCookie(a, token).get('/me')).status).toBe(401);
    expect((await withCookie(b, token).get('/me')).status).toBe(401);
  });
});

describe.skipIf(!onPostgres)('shared work on one PostgreSQL database, from separate connection pools', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  const pools: Database[] = [];
  beforeAll(async () => {
    scratch = await scratchDatabase(process.env.DATABASE_URL!, 'terrain_test');
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await scratch?.drop();
  });

  it('run the migrations once when four instances start at the same moment', async () => {
    for (let i = 0; i < 4; i++) pools.push(await openDatabase({ databaseUrl: scratch.url }));
    await Promise.all(pools.map((p) => migrateToLatest(p.db)));
    const applied = await sql<{
      name: string;
      times: number;
    }>`select name, count(*)::int as times from kysely_migration group by name`.execute(pools[0].db);
    expect(applied.rows.length).toBeGreaterThan(0);
    expect(applied.rows.filter((r) => r.times !== 1)).toEqual([]);
  });

  it('let two job runners take each of 40 queued jobs exactly once, both taking a share', async () => {
    const [first, second] = pools;
    const applicationId = randomUUID();
    await first.db
      .insertInto('applications')
      .values({ id: applicationId, name: 'jobs_only', version: '1', summary: '{}', model: '{}' })
      .execute();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = randomUUID();
      ids.push(id);
      await first.db
        .insertInto('jobs')
        .values({ id, kind: 'note', application_id: applicationId, payload: '{}', status: 'queued' })
        .execute();
    }
    const ran: Record<'first' | 'second', string[]> = { first: [], second: [] };
    const handler = (who: 'first' | 'second') => ({
      note: async (job: Job) => {
        ran[who].push(job.id);
        // Long enough that the other runner polls while this one works.
        await new Promise((resolve) => setTimeout(resolve, 30));
      },
    });
    const runners = [
      startJobRunner(first.db, handler('first'), () => undefined),
      startJobRunner(second.db, handler('second'), () => undefined),
    ];
    try {
      for (let wait = 0; wait < 300; wait++) {
        const left = await first.db
          .selectFrom('jobs')
          .select('id')
          .where('status', 'in', ['queued', 'running'])
          .execute();
        if (left.length === 0) break;
        runners.forEach((r) => r.poke());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
    const all = [...ran.first, ...ran.second];
    expect(all.slice().sort()).toEqual(ids.slice().sort());
    expect(ran.first.length).toBeGreaterThan(0);
    expect(ran.second.length).toBeGreaterThan(0);
    const done = await first.db.selectFrom('jobs').select('status').where('status', '=', 'done').execute();
    expect(done).toHaveLength(40);
  });
});
