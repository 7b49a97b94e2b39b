/**
 * Uploads on slow networks. A file is spooled as it arrives and checked from there; its rows are written only once
 * its last byte has come (uploadSpool.ts): an upload waiting for its bytes holds no transaction, no connection and
 * no entry, so pages (of its entry too) are answered and other uploads to its entry go through meanwhile; its client
 * leaving ends it with nothing written. Writes that wait on the database hold at most LATE_TRANSACTIONS of
 * PostgreSQL's connections. On both engines, an upload whose bytes stop coming is abandoned after
 * UPLOAD_IDLE_SECONDS: refused with 408 UPLOAD_STALLED, nothing stored, its entry free again; an instance stopping
 * meanwhile closes its connection after SHUTDOWN_GRACE_SECONDS rather than wait for it.
 */
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATE_TRANSACTIONS, lateTransactionsWaiting } from '../../server/db/lateTransaction.ts';
import { uploadsWaitingForBytes } from '../../server/services/uploadLanes.ts';
import { POSTGRES_POOL_SIZE } from '../../server/db/database.ts';
import { signedIn } from './accountFixtures.ts';
import { createApplication, csvForm, ROOT, startDataServer, type DataServer } from './dataFixtures.ts';
import { restartOnSameData, type TestServer } from './harness.ts';

/** More uploads than the pool has connections. */
const UPLOADS = POSTGRES_POOL_SIZE + 2;
/**
 * Rows sent before an upload pauses: more than the checked rows a write waits for before its first batch (about
 * 3 MB here, WRITE_AHEAD_CHARACTERS in ingest.ts), so that its write would have begun were it not waiting for the
 * file's last byte.
 */
const ROWS_BEFORE_PAUSE = 12_000;
const FILLER = 'x'.repeat(250);

const entries = Array.from({ length: UPLOADS }, (_, index) => `r${index}`);
const CROWD_YAML = `OA_version: 2.0.1
OA_application:
  OA_name: crowd
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Foule, en: Crowd}
OA_data:
${entries
  .map(
    (name) => `  ${name}:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      value: null
`,
  )
  .join('')}`;

let data: DataServer;
let observer: pg.Client;

/** Sessions of the server's database inside a transaction that waits for its client (an upload's next bytes). */
async function waitingTransactions(on: pg.Client = observer): Promise<number> {
  const result = await on.query<{ count: number }>(
    `select count(*)::int as count from pg_stat_activity where datname = current_database() and state = 'idle in transaction' and pid <> pg_backend_pid()`,
  );
  return result.rows[0].count;
}

/** Starts an upload to `entry` that sends its first rows, then waits for `release` before its last one. */
function slowUpload(entry: string, release: Promise<void>, server: DataServer = data): Promise<Response> {
  const encoder = new TextEncoder();
  const boundary = `----terrain-slow-${entry}`;
  const rows = Array.from({ length: ROWS_BEFORE_PAUSE }, (_, index) => `k${index};${index}${FILLER}`).join('\n');
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${entry}.csv"\r\nContent-Type: text/csv\r\n\r\ncode;value\n${rows}\n`,
        ),
      );
      await release;
      // The server may have given up on this upload and closed the request already.
      try {
        controller.enqueue(encoder.encode(`last;end\n\r\n--${boundary}--\r\n`));
        controller.close();
      } catch {
        return;
      }
    },
  });
  return fetch(`${server.server.url}/api/v1/applications/crowd/references/${entry}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
}

/**
 * Starts an upload to `entry` that sends its first rows and pauses, on a connection of its own; `leave` closes
 * that connection, as a tablet leaving the network does.
 */
function leavingUpload(entry: string, server: DataServer) {
  const boundary = `----terrain-leaving-${entry}`;
  const rows = Array.from({ length: ROWS_BEFORE_PAUSE }, (_, index) => `k${index};${index}${FILLER}`).join('\n');
  const request = http.request(`${server.server.url}/api/v1/applications/crowd/references/${entry}`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  request.on('error', () => undefined);
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${entry}.csv"\r\nContent-Type: text/csv\r\n\r\ncode;value\n${rows}\n`,
  );
  const closed = new Promise<void>((resolve) => request.on('close', () => resolve()));
  return { leave: () => request.destroy(), closed };
}

/** Rows of `entry` stored now, whatever their upload. */
async function storedRows(server: DataServer, entry: string): Promise<number> {
  const { count } = await server.server.server.ctx.db
    .selectFrom('data_rows')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('data_name', '=', entry)
    .executeTakeFirstOrThrow();
  return Number(count);
}

describe('an upload waiting for its bytes', () => {
  let waiting: DataServer;
  beforeAll(async () => {
    waiting = await startDataServer();
    await createApplication(waiting.admin, 'crowd', CROWD_YAML);
  }, 60_000);
  afterAll(() => waiting?.server.close());

  it('holds neither its entry’s readers nor its other writers, writes nothing until its last byte, then all of it', async () => {
    const first = await waiting.admin.post('/applications/crowd/references/r0', {
      body: csvForm('r0.csv', 'code;value\nbefore;1\n'),
    });
    expect(first.status, first.text).toBe(201);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = slowUpload('r0', released, waiting);
    try {
      // Checked as far as its bytes go (more than a write waits for before its first batch), it waits for the rest.
      await expect
        .poll(uploadsWaitingForBytes, { timeout: 60_000, interval: 100, message: 'the upload waits for its bytes' })
        .toBe(1);
      const page = await waiting.admin.get('/applications/crowd/references/r0/rows?limit=10');
      expect(page.status, page.text).toBe(200);
      const other = await waiting.admin.post('/applications/crowd/references/r0', {
        body: csvForm('r0.csv', 'code;value\nmeanwhile;2\n'),
      });
      expect(other.status, other.text).toBe(201);
      expect(other.body.totalRows).toBe(2);
      expect(await storedRows(waiting, 'r0')).toBe(2);
      expect(uploadsWaitingForBytes()).toBe(1);
    } finally {
      release();
    }
    const answer = await slow;
    expect(answer.status, await answer.clone().text()).toBe(201);
    expect(await answer.json()).toMatchObject({ lineCount: ROWS_BEFORE_PAUSE + 1, totalRows: ROWS_BEFORE_PAUSE + 3 });
  }, 120_000);

  it('whose client leaves is abandoned, having written nothing, and its spooled bytes removed', async () => {
    const before = await storedRows(waiting, 'r1');
    const leaving = leavingUpload('r1', waiting);
    await expect
      .poll(uploadsWaitingForBytes, { timeout: 60_000, interval: 100, message: 'the upload waits for its bytes' })
      .toBe(1);
    const spool = path.join(waiting.server.dataDir, 'spool');
    expect((await readdir(spool)).filter((name) => name.startsWith('upload-'))).toHaveLength(1);
    leaving.leave();
    await leaving.closed;
    await expect
      .poll(async () => (await readdir(spool)).filter((name) => name.startsWith('upload-')), {
        timeout: 10_000,
        interval: 50,
        message: 'the spooled file removed',
      })
      .toEqual([]);
    expect(uploadsWaitingForBytes()).toBe(0);
    expect(await storedRows(waiting, 'r1')).toBe(before);
  }, 120_000);
});

describe.skipIf(!process.env.DATABASE_URL)('uploads waiting for a transaction (PostgreSQL)', () => {
  beforeAll(async () => {
    data = await startDataServer();
    await createApplication(data.admin, 'crowd', CROWD_YAML);
    observer = new pg.Client({ connectionString: data.server.databaseUrl });
    await observer.connect();
  }, 60_000);
  afterAll(async () => {
    await observer?.end();
    await data?.server.close();
  });

  it('hold no transaction while their bytes come, and at most LATE_TRANSACTIONS connections while they write; pages are answered', async () => {
    expect(LATE_TRANSACTIONS).toBeLessThan(POSTGRES_POOL_SIZE);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const uploads = entries.map((entry) => slowUpload(entry, released));
    let locked = false;
    try {
      // Each upload waiting for its bytes lets the next one in once it has waited a second: all of them read their
      // files as far as the bytes go, and none holds a transaction meanwhile.
      await expect
        .poll(uploadsWaitingForBytes, { timeout: 60_000, interval: 100, message: 'uploads waiting for their bytes' })
        .toBe(UPLOADS);
      expect(await waitingTransactions()).toBe(0);
      expect(await transactionsWaitingForLock()).toBe(0);
      // Their writes then wait on the database (a lock taken here): each holds its transaction and connection.
      await observer.query('begin');
      await observer.query('lock table data_rows in exclusive mode');
      locked = true;
      release();
      await expect
        .poll(lateTransactionsWaiting, { timeout: 60_000, interval: 100, message: 'uploads waiting for their turn' })
        .toBe(UPLOADS - LATE_TRANSACTIONS);
      await expect
        .poll(transactionsWaitingForLock, { timeout: 10_000, interval: 100, message: 'uploads in their transaction' })
        .toBe(LATE_TRANSACTIONS);
      const page = await data.admin.get('/applications/crowd/references/r0');
      expect(page.status, page.text).toBe(200);
      expect(await transactionsWaitingForLock()).toBe(LATE_TRANSACTIONS);
    } finally {
      release();
      if (locked) await observer.query('commit');
    }
    for (const [index, upload] of uploads.entries()) {
      const answer = await upload;
      expect(answer.status, `${entries[index]}: ${await answer.clone().text()}`).toBe(201);
      expect(await answer.json()).toMatchObject({ lineCount: ROWS_BEFORE_PAUSE + 1 });
    }
    expect(lateTransactionsWaiting()).toBe(0);
  }, 120_000);
});

/** Sessions of the server's database waiting for a lock (the one the test holds). */
async function transactionsWaitingForLock(): Promise<number> {
  const result = await observer.query<{ count: number }>(
    `select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
  );
  return result.rows[0].count;
}

describe('an upload whose bytes stop coming', () => {
  let stalled: DataServer;
  beforeAll(async () => {
    stalled = await startDataServer({ uploadIdleMs: 1_000 });
    await createApplication(stalled.admin, 'crowd', CROWD_YAML);
  }, 60_000);
  afterAll(() => stalled?.server.close());

  it('is abandoned with 408 UPLOAD_STALLED, stores nothing and leaves its entry to the next upload', async () => {
    let release!: () => void;
    const never = new Promise<void>((resolve) => (release = resolve));
    try {
      const answer = await slowUpload('r0', never, stalled);
      const body = await answer.json();
      expect([answer.status, body.code], JSON.stringify(body)).toEqual([408, 'UPLOAD_STALLED']);
      expect(body.params).toEqual({ idleSeconds: 1 });
    } finally {
      release();
    }
    const stored = await stalled.admin.get('/applications/crowd/references/r0');
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.totalRows).toBe(0);

    const rows = Array.from({ length: ROWS_BEFORE_PAUSE }, (_, index) => `k${index};${index}`).join('\n');
    const next = await stalled.admin.post('/applications/crowd/references/r0', {
      body: csvForm('r0.csv', `code;value\n${rows}\n`),
    });
    expect(next.status, next.text).toBe(201);
    expect(next.body).toMatchObject({ lineCount: ROWS_BEFORE_PAUSE, totalRows: ROWS_BEFORE_PAUSE });
  }, 60_000);
});

describe('an instance stopping while an upload waits for its bytes', () => {
  let stopping: DataServer;
  let restarted: TestServer | undefined;
  beforeAll(async () => {
    stopping = await startDataServer({ uploadIdleMs: 600_000, shutdownGraceMs: 500 });
    await createApplication(stopping.admin, 'crowd', CROWD_YAML);
  }, 60_000);
  afterAll(async () => {
    await restarted?.close();
    await stopping?.server.close();
  });

  it('closes its connection after SHUTDOWN_GRACE_SECONDS, stops, and has stored nothing of it', async () => {
    const received = new Promise<void>((resolve) => stopping.server.server.app.server.once('request', () => resolve()));
    const upload = leavingUpload('r0', stopping);
    await received;
    // The client never leaves: without the grace, the stop would wait for it as long as its bytes may take.
    restarted = await restartOnSameData(stopping.server);
    await upload.closed;
    const reader = await signedIn(restarted, ROOT);
    const stored = await reader.get('/applications/crowd/references/r0');
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body.totalRows).toBe(0);
  }, 60_000);
});
