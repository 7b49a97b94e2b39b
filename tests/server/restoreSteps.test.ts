/**
 * A backup restore on the embedded database (restoreInSteps.ts): it writes batch after batch, letting other users'
 * requests through, instead of holding the one connection for its whole length. Meanwhile the application is hidden
 * (404, absent from the list) and its name stays taken; its rows appear all at once at the end. On both engines, a
 * restore cut by a stop leaves nothing once the server has started again, not even its backup's copy in the spool.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION, VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from '../bench/versionedData.ts';
import { signedIn } from './accountFixtures.ts';
import { streamEvents } from './applicationFixtures.ts';
import {
  createApplication,
  csvForm,
  fetchBytes,
  q,
  ROOT,
  startDataServer,
  uploadReference,
  waitForJob,
  type DataServer,
} from './dataFixtures.ts';
import { restartOnSameData, type TestServer } from './harness.ts';

/** Rows of the published version the backup holds: hundreds of the embedded database's batches. */
const ROWS = 120_000;
const RESTORED = 'restored_stations';

let data: DataServer;
let backup: Uint8Array;
let restarted: TestServer | undefined;

const restore = (server: DataServer) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(backup)]), 'backup.zip');
  return server.admin.post(`/applications/${RESTORED}/upload-bundle`, { body: form });
};

/** Rows written so far by a restore still under way (its application hidden). */
const rowsOfHiddenRestores = async (server: TestServer) =>
  (
    await sql<{ n: number }>`
      select count(*)::int as n from data_rows
      where application_id in (select id from applications where restoring_since is not null)`.execute(
      server.server.ctx.db,
    )
  ).rows[0]!.n;

/**
 * Starts a restore to `server` and reads its progress until an event naming `until`; `ended` resolves when its
 * answer ends (or breaks off).
 */
async function restoreUntil(server: DataServer, until: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(backup)]), 'backup.zip');
  const answer = await fetch(`${server.server.url}/api/v1/applications/${RESTORED}/upload-bundle`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}` },
    body: form,
  });
  expect(answer.status).toBe(200);
  const reader = answer.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(until)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the restore ended before ${until}: ${seen}`);
    seen += decoder.decode(value, { stream: true });
  }
  const ended = (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  return { ended };
}

beforeAll(async () => {
  data = await startDataServer({ shutdownGraceMs: 200 });
  await createApplication(data.admin, APPLICATION, VERSIONED_YAML);
  expect((await uploadReference(data.admin, APPLICATION, 'sites', 'sites.csv', sitesCsv())).status).toBe(201);
  const deposited = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
    body: csvForm('readings.csv', readingsCsv(ROWS, 3, 2022).text, yearDataset(3, 2022)),
  });
  expect(deposited.status, deposited.text).toBe(201);
  const fileId = deposited.body.fileId as string;
  const published = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
    json: { fileid: fileId, topublish: true },
  });
  expect(published.status, published.text).toBe(202);
  await waitForJob(data.admin, APPLICATION, fileId);
  const saved = await fetchBytes(data, `/applications/${APPLICATION}/upload-bundle?withData=true`);
  expect(saved.status).toBe(200);
  backup = saved.bytes;
}, 240_000);
afterAll(async () => {
  await restarted?.close();
  await data?.server.close();
});

describe.skipIf(!!process.env.DATABASE_URL)('a large restore on the embedded database', () => {
  it('lets other users through, hides the application until its end, then shows it whole', async () => {
    const restoring = restore(data);
    await expect.poll(() => rowsOfHiddenRestores(data.server), { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);

    // Answered while the restore goes on: in one transaction, the page waited for the restore's end.
    const page = await data.admin.get(`/applications/${APPLICATION}/data/readings/json${q({ offset: 0, limit: 10 })}`);
    expect(page.status, page.text).toBe(200);
    const hidden = await data.admin.get(`/applications/${RESTORED}`);
    const listed = await data.admin.get('/applications');
    const taken = await data.admin.post(`/applications/${RESTORED}`, { body: csvForm('x.yaml', VERSIONED_YAML) });
    expect(await rowsOfHiddenRestores(data.server), 'the restore is still under way').toBeGreaterThan(0);
    expect(hidden.status, hidden.text).toBe(404);
    expect(listed.text).not.toContain(RESTORED);
    expect(taken.text).toContain('APPLICATION_EXISTS_ON_CREATION');

    const restored = await restoring;
    const result = streamEvents(restored.text).find((event) => event.type === 'result');
    expect(result?.result, restored.text).toMatchObject({ name: RESTORED, rows: ROWS + 200 });
    const rows = await data.admin.get(`/applications/${RESTORED}/data/readings/json${q({ offset: 0, limit: 1 })}`);
    expect(rows.status, rows.text).toBe(200);
    expect(rows.body.totalRows).toBe(ROWS);
    expect((await data.admin.get('/applications')).text).toContain(RESTORED);
  }, 240_000);
});

describe('a restore cut by a stop', () => {
  it('cut by a stop, leaves nothing once the server has started again, not even its spooled backup', async () => {
    const other = await startDataServer({ shutdownGraceMs: 200 });
    try {
      // Once the version's deposit is announced, the references are written (committed on the embedded database, in
      // the restore's transaction on PostgreSQL) and the version's rows are being written.
      const restoring = await restoreUntil(other, 'bundle.restore.deposit');
      // A crash leaves the backup being read in the instance's spool: the start empties it.
      const spool = path.join(other.server.dataDir, 'spool');
      await mkdir(path.join(spool, 'bundle-left'), { recursive: true });
      await writeFile(path.join(spool, 'bundle-left', 'bundle.zip'), backup);
      restarted = await restartOnSameData(other.server);
      await restoring.ended;
      expect(existsSync(path.join(spool, 'bundle-left'))).toBe(false);
      const admin = await signedIn(restarted, ROOT);
      expect((await admin.get(`/applications/${RESTORED}`)).status).toBe(404);
      expect(await rowsOfHiddenRestores(restarted)).toBe(0);
      // Rows are removed by hand (data_rows keeps no foreign key): none of an application that is gone, no part of
      // a file that is gone.
      const left = await sql<{ applications: number; rows: number; parts: number }>`
        select (select count(*)::int from applications) as applications,
               (select count(*)::int from data_rows) as rows,
               (select count(*)::int from file_parts) as parts`.execute(restarted.server.ctx.db);
      expect(left.rows[0]).toEqual({ applications: 0, rows: 0, parts: 0 });
    } finally {
      await restarted?.close();
      restarted = undefined;
      await other.server.close();
    }
  }, 240_000);
});
