import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetExpiredKeys } from '../../server/http/idempotency.ts';
import { csvForm, OBSERVATORY_YAML } from './dataFixtures.ts';
import { HttpClient } from './httpClient.ts';
import {
  idempotencyKeyStatus,
  recordKeyLeftRunning,
  restartOnSameData,
  startTestServer,
  type TestServer,
} from './harness.ts';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../fixtures/configurations', name));

function upload(fileName: string, bytes: Uint8Array, comment = '') {
  const data = new FormData();
  data.append('comment', comment);
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
});
afterAll(() => server?.close());

/**
 * Sends, on a connection of its own, the beginning of a creation's multipart body (its headers announce much more)
 * and answers the connection, left open.
 */
async function sendHalfACreation(name: string, key: string) {
  const url = new URL(server.url);
  const boundary = 'terrain-half';
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  const sent = new Promise((resolve) =>
    socket.write(
      [
        `POST /api/v1/applications/${name} HTTP/1.1`,
        `Host: ${url.host}`,
        `Cookie: ${admin.cookieHeader}`,
        `Idempotency-Key: ${key}`,
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        'Content-Length: 1000000',
        '',
        `--${boundary}`,
        'Content-Disposition: form-data; name="file"; filename="fieldnotes-v1.yaml"',
        '',
        fixture('fieldnotes-v1.yaml').toString('utf8').slice(0, 200),
      ].join('\r\n'),
      resolve,
    ),
  );
  await sent;
  return socket;
}

const configurationCount = async (name: string) =>
  (await admin.get(`/applications/${name}`)).body.versions?.length ?? 0;

describe('idempotency keys', () => {
  it('apply a multipart creation once and answer a replay with the kept stream', async () => {
    const headers = { 'Idempotency-Key': 'create-once' };
    const first = await admin.post('/applications/idem_one', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    const second = await admin.post('/applications/idem_one', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toContain('application/x-ndjson');
    expect(await configurationCount('idem_one')).toBe(1);
  });

  it('remember a key as applied once its answer is dropped: a late replay gets 409 ALREADY_APPLIED and runs nothing', async () => {
    const headers = { 'Idempotency-Key': 'applied-long-ago' };
    const send = (comment = '') =>
      admin.post('/applications/idem_late', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), comment),
        headers,
      });
    expect((await send()).text).toContain('"type":"result"');
    const db = server.server.ctx.db;
    const expire = () =>
      sql`update idempotency_keys set expires_at = now() - interval '1 minute' where key = 'applied-long-ago'`.execute(
        db,
      );
    await expire();
    await forgetExpiredKeys(db);
    const late = await send();
    expect([late.status, late.body.code, late.body.params]).toEqual([
      409,
      'ALREADY_APPLIED',
      { key: 'applied-long-ago' },
    ]);
    expect((await send('another comment')).status).toBe(422);
    expect(await configurationCount('idem_late')).toBe(1);
    const [kept] = await db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'applied-long-ago').execute();
    expect(kept.response_body).toBeNull();
    expect(kept.expires_at.getTime()).toBeGreaterThan(Date.now() + 80 * 24 * 3600 * 1000);
    // Remembered that long, it is forgotten.
    await expire();
    await forgetExpiredKeys(db);
    expect(
      await db.selectFrom('idempotency_keys').select('key').where('key', '=', 'applied-long-ago').execute(),
    ).toEqual([]);
  });

  it('refuse the same key with another payload', async () => {
    const headers = { 'Idempotency-Key': 'reused' };
    await admin.post('/applications/idem_two', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers,
    });
    const other = await admin.post('/applications/idem_two', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml'), 'another comment'),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const json = await admin.put('/users', {
      json: { login: 'root', password: 'root-password', newPassword: 'x', newPasswordConfirm: 'y' },
      headers: { 'Idempotency-Key': 'reused' },
    });
    expect(json.status).toBe(422);
  });

  it('do not keep refusals, so a corrected retry runs', async () => {
    const headers = { 'Idempotency-Key': 'refused-first' };
    const refused = await admin.put('/users', {
      json: { login: 'root', password: 'wrong', newPassword: 'n', newPasswordConfirm: 'n' },
      headers,
    });
    expect(refused.status).toBe(422);
    const again = await admin.put('/users', {
      json: { login: 'root', password: 'wrong', newPassword: 'n', newPasswordConfirm: 'n' },
      headers,
    });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answer 409 while the first request with the key still runs', async () => {
    const headers = { 'Idempotency-Key': 'concurrent' };
    const [a, b] = await Promise.all([
      admin.post('/applications/idem_three', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
        headers,
      }),
      admin.post('/applications/idem_three', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
        headers,
      }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect(await configurationCount('idem_three')).toBe(1);
  });

  it('tell 409, not cut off, a first request whose body still comes when the same key is sent again', async () => {
    // Two tabs sending one queue: the same upload twice at once, the first on a slow network, its bytes still coming.
    await admin.post('/applications/idem_twice', { body: upload('observatory.yaml', Buffer.from(OBSERVATORY_YAML)) });
    const lines = ['code,label_fr,label_en'];
    for (let i = 0; i < 5_000; i++) lines.push(`h${i},Habitat ${i},Habitat ${i}`);
    const csv = lines.join('\n');
    const url = '/applications/idem_twice/references/habitats';
    const headers = { 'Idempotency-Key': 'twice-at-once' };
    const trickled = trickledUpload(url, 'twice-at-once', csv);
    await expect
      .poll(() => idempotencyKeyStatus(server, 'twice-at-once'), { message: 'the first request runs' })
      .toBe('running');
    const second = await admin.post(url, { body: csvForm('habitats.csv', csv), headers });
    expect(second.status, second.text).toBe(409);
    expect(second.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    trickled.finish();
    const first = await trickled.answer;
    expect(first.status, first.text).toBe(201);
    expect(JSON.parse(first.text)).toMatchObject({ lineCount: 5_000, added: 5_000 });
    const replay = await admin.post(url, { body: csvForm('habitats.csv', csv), headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it('let a retry end a first request whose body hangs half-sent, and run at once, once', async () => {
    // A tablet that lost the network mid-upload: the connection stays open, the rest of the body never comes.
    const socket = await sendHalfACreation('idem_hang', 'hanging');
    const closed = once(socket, 'close');
    await expect
      .poll(() => idempotencyKeyStatus(server, 'hanging'), { message: 'the first request runs' })
      .toBe('running');
    const retry = await admin.post('/applications/idem_hang', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers: { 'Idempotency-Key': 'hanging' },
    });
    expect(retry.status, retry.text).toBe(200);
    await closed;
    expect(await configurationCount('idem_hang')).toBe(1);
    const replay = await admin.post('/applications/idem_hang', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers: { 'Idempotency-Key': 'hanging' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
  it('let a retry run at once when the client of the first request left before its body was read', async () => {
    // The tablet navigated away while its upload waited on the server (here for the key's table): by the time the
    // request reads its body, the connection is closed. It must fail then, not wait for the body for good.
    const db = server.server.ctx.db;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = db.transaction().execute(async (trx) => {
      await sql`lock table idempotency_keys in exclusive mode`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const closedOnServer = new Promise((resolve) =>
      server.server.app.server.once('connection', (socket) => socket.once('close', resolve)),
    );
    const socket = await sendHalfACreation('idem_left', 'left-early');
    socket.destroy();
    await closedOnServer;
    release();
    await holding;
    const retry = await admin.post('/applications/idem_left', {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers: { 'Idempotency-Key': 'left-early' },
    });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await configurationCount('idem_left')).toBe(1);
  });
});

/**
 * An upload whose client sends its file a line at a time, paced like a slow network, until `finish` sends the rest:
 * a first request whose body is still coming, never stalled.
 */
function trickledUpload(url: string, key: string, csv: string) {
  const encoder = new TextEncoder();
  const boundary = '----terrain-trickle';
  let finished = false;
  const finish = () => (finished = true);
  const lines = csv.split('\n');
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="habitats.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
      );
    },
    async pull(controller) {
      if (finished) {
        controller.enqueue(encoder.encode(`${lines.slice(sent).join('\n')}\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (sent < lines.length - 1) controller.enqueue(encoder.encode(`${lines[sent++]}\n`));
    },
  });
  const answer = fetch(`${server.url}/api/v1${url}`, {
    method: 'POST',
    headers: {
      cookie: admin.cookieHeader,
      'idempotency-key': key,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: 'half',
  } as RequestInit).then(async (response) => ({ status: response.status, text: await response.text() }));
  return { answer, finish };
}

describe('a key whose request died with its server', () => {
  const ranBy = async (instance: string, instanceAliveForMs: number | null, key: string, name: string) => {
    const scope = (await admin.get('/me')).body.id as string;
    const db = server.server.ctx.db;
    if (instanceAliveForMs !== null)
      await db
        .insertInto('server_instances')
        .values({ id: instance, alive_until: new Date(Date.now() + instanceAliveForMs) })
        .execute();
    await recordKeyLeftRunning(server, { scope, key, path: `/api/v1/applications/${name}`, instance });
  };
  const send = (name: string, key: string) =>
    admin.post(`/applications/${name}`, {
      body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
      headers: { 'Idempotency-Key': key },
    });

  it('is taken over by the retry at once when its instance is no longer recorded (stopped, or gone at a restart)', async () => {
    await ranBy('instance-gone', null, 'crash-gone', 'idem_gone');
    const retried = await send('idem_gone', 'crash-gone');
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await configurationCount('idem_gone')).toBe(1);
    const replayed = await send('idem_gone', 'crash-gone');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  });

  it('waits while its instance says it is alive, and is taken over once the instance has fallen silent', async () => {
    await ranBy('instance-killed', 60_000, 'crash-silent', 'idem_silent');
    const held = await send('idem_silent', 'crash-silent');
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    // Its heartbeat stopped with it: once it is silent for longer than an instance may be, the key is free.
    await server.server.ctx.db
      .updateTable('server_instances')
      .set({ alive_until: new Date(Date.now() - 1000) })
      .where('id', '=', 'instance-killed')
      .execute();
    const taken = await send('idem_silent', 'crash-silent');
    expect(taken.status, taken.text).toBe(200);
    expect(await configurationCount('idem_silent')).toBe(1);
  });

  it('is never taken from the instance that runs it, even when its heartbeat is late', async () => {
    const own = server.server.instance.id;
    await ranBy(own, null, 'still-running', 'idem_own');
    await server.server.ctx.db
      .updateTable('server_instances')
      .set({ alive_until: new Date(Date.now() - 1000) })
      .where('id', '=', own)
      .execute();
    const held = await send('idem_own', 'still-running');
    expect(held.status).toBe(409);
    expect(await configurationCount('idem_own')).toBe(0);
  });
});

// On PostgreSQL other instances may run: a start forgets no one, and a killed one is known gone once silent (above).
describe.skipIf(Boolean(process.env.DATABASE_URL))('after a restart on the embedded database', () => {
  it('takes over at once a key the killed process was running, though its last heartbeat looks recent', async () => {
    const first = await startTestServer({
      admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
    });
    const restarted = await (async () => {
      const client = new HttpClient(first.url + '/api/v1');
      await client.post('/login', { form: { login: 'root', password: 'root-password' } });
      const scope = (await client.get('/me')).body.id as string;
      await first.server.ctx.db
        .insertInto('server_instances')
        .values({ id: 'killed-before-restart', alive_until: new Date(Date.now() + 60_000) })
        .execute();
      await first.server.ctx.db
        .insertInto('idempotency_keys')
        .values({
          scope,
          key: 'killed-mid-upload',
          method: 'POST',
          path: '/api/v1/applications/idem_restart',
          fingerprint: null,
          status: 'running',
          instance: 'killed-before-restart',
          locked_until: new Date(Date.now() + 60_000),
          expires_at: new Date(Date.now() + 3_600_000),
        })
        .execute();
      return restartOnSameData(first);
    })();
    try {
      const client = new HttpClient(restarted.url + '/api/v1');
      await client.post('/login', { form: { login: 'root', password: 'root-password' } });
      const retried = await client.post('/applications/idem_restart', {
        body: upload('fieldnotes-v1.yaml', fixture('fieldnotes-v1.yaml')),
        headers: { 'Idempotency-Key': 'killed-mid-upload' },
      });
      expect(retried.status, retried.text).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await restarted.close();
      await first.close();
    }
  });
});
