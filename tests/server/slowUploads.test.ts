/**
 * Uploads on slow networks against PostgreSQL's pool: an upload's transaction begins at its first batch and lasts
 * until its last byte has come, holding a pooled connection all that time. Many people sending large files over
 * poor networks at once must not take every connection: pages are still answered while they wait for their bytes,
 * and every upload completes once its bytes come. (The embedded database writes a large upload in batches of their
 * own, holding its one connection only while each is written.) One whose client leaves while it waits for its turn
 * (a transaction on PostgreSQL, its entry on the embedded database) gives it up at once. On both engines, an upload whose bytes stop coming
 * is abandoned after UPLOAD_IDLE_SECONDS: refused with 408 UPLOAD_STALLED, nothing stored, its entry free again; an
 * instance stopping meanwhile closes its connection after SHUTDOWN_GRACE_SECONDS rather than wait for it.
 */
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATE_TRANSACTIONS, lateTransactionsWaiting } from '../../server/db/lateTransaction.ts';
import { entryWritersWaiting } from '../../server/services/entryGate.ts';
import { POSTGRES_POOL_SIZE } from '../../server/db/database.ts';
import { signedIn } from './accountFixtures.ts';
import { createApplication, csvForm, ROOT, startDataServer, type DataServer } from './dataFixtures.ts';
import { restartOnSameData, type TestServer } from './harness.ts';

/** More uploads than the pool has connections. */
const UPLOADS = POSTGRES_POOL_SIZE + 2;
/**
 * Rows sent before an upload pauses: more than the checked rows a write waits for before its first batch (about
 * 3 MB here, WRITE_AHEAD_CHARACTERS in ingest.ts), so its transaction has begun.
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

describe.skipIf(!process.env.DATABASE_URL)('uploads on slow networks (PostgreSQL)', () => {
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

  it('leave connections to the readers while they wait for their bytes, and all complete', async () => {
    expect(LATE_TRANSACTIONS).toBeLessThan(POSTGRES_POOL_SIZE);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const uploads = entries.map((entry) => slowUpload(entry, released));
    try {
      // Each paused upload lets the next one in once it has waited a second for its bytes. Those past the bound read
      // their file too, then wait for a transaction of their own without holding a connection: at the end every
      // upload is in, each holding a transaction or waiting for its turn.
      await expect
        .poll(lateTransactionsWaiting, { timeout: 60_000, interval: 100, message: 'uploads waiting for their turn' })
        .toBe(UPLOADS - LATE_TRANSACTIONS);
      await expect
        .poll(waitingTransactions, { timeout: 10_000, interval: 100, message: 'uploads paused in their transaction' })
        .toBe(LATE_TRANSACTIONS);
      const page = await data.admin.get('/applications/crowd/references/r0');
      expect(page.status, page.text).toBe(200);
      expect(await waitingTransactions()).toBe(LATE_TRANSACTIONS);
    } finally {
      release();
    }
    for (const [index, upload] of uploads.entries()) {
      const answer = await upload;
      expect(answer.status, `${entries[index]}: ${await answer.clone().text()}`).toBe(201);
      expect(await answer.json()).toMatchObject({ lineCount: ROWS_BEFORE_PAUSE + 1 });
    }
  }, 120_000);
});

describe.skipIf(!process.env.DATABASE_URL)('uploads waiting for their turn (PostgreSQL)', () => {
  let crowd: DataServer;
  let crowdObserver: pg.Client;
  const paused = () => waitingTransactions(crowdObserver);
  beforeAll(async () => {
    crowd = await startDataServer();
    await createApplication(crowd.admin, 'crowd', CROWD_YAML);
    crowdObserver = new pg.Client({ connectionString: crowd.server.databaseUrl });
    await crowdObserver.connect();
  }, 60_000);
  afterAll(async () => {
    await crowdObserver?.end();
    await crowd?.server.close();
  });

  it('give up their turn when their client leaves while they wait for it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const uploads: Promise<Response>[] = [];
    try {
      uploads.push(...entries.slice(0, LATE_TRANSACTIONS).map((entry) => slowUpload(entry, released, crowd)));
      await expect
        .poll(paused, { timeout: 60_000, interval: 100, message: 'uploads paused in their transaction' })
        .toBe(LATE_TRANSACTIONS);
      uploads.push(slowUpload(entries[LATE_TRANSACTIONS]!, released, crowd));
      await expect.poll(lateTransactionsWaiting, { timeout: 60_000, interval: 100 }).toBe(1);
      const leaving = leavingUpload(entries[LATE_TRANSACTIONS + 1]!, crowd);
      await expect.poll(lateTransactionsWaiting, { timeout: 60_000, interval: 100 }).toBe(2);
      leaving.leave();
      // While every turn is still taken: the upload whose client left is no longer in the queue.
      await expect
        .poll(lateTransactionsWaiting, { timeout: 10_000, interval: 50, message: 'the upload that left gave up' })
        .toBe(1);
      expect(await paused()).toBe(LATE_TRANSACTIONS);
    } finally {
      release();
    }
    for (const upload of uploads) expect((await upload).status).toBe(201);
    expect(lateTransactionsWaiting()).toBe(0);
  }, 120_000);
});

describe.skipIf(process.env.DATABASE_URL)('an upload waiting for its entry (embedded database)', () => {
  let embedded: DataServer;
  beforeAll(async () => {
    embedded = await startDataServer();
    await createApplication(embedded.admin, 'crowd', CROWD_YAML);
  }, 60_000);
  afterAll(() => embedded?.server.close());

  it('gives up its turn when its client leaves while an earlier upload holds the entry', async () => {
    const { id } = await embedded.server.server.ctx.db
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'crowd')
      .executeTakeFirstOrThrow();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = slowUpload('r0', released, embedded);
    try {
      // The second is sent once the first holds the entry (the lane lets it in a second after the first paused).
      await expect
        .poll(() => embedded.server.server.ctx.db.selectFrom('data_rows').select('id').limit(1).execute(), {
          timeout: 60_000,
          interval: 100,
        })
        .toHaveLength(1);
      const leaving = leavingUpload('r0', embedded);
      await expect.poll(() => entryWritersWaiting(id, 'r0'), { timeout: 60_000, interval: 100 }).toBe(1);
      leaving.leave();
      await expect
        .poll(() => entryWritersWaiting(id, 'r0'), {
          timeout: 10_000,
          interval: 50,
          message: 'the upload that left gave up',
        })
        .toBe(0);
    } finally {
      release();
    }
    expect((await holding).status).toBe(201);
  }, 120_000);
});

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
