/**
 * Issue 22, "never freeze": on the embedded database a large upload writes batch after batch, each a short
 * transaction of its own, so that other users are answered between batches; all or nothing is kept by an undo
 * journal, and readers of the entry being written see it before or after, never half-way. On PostgreSQL the upload
 * keeps its one transaction: the same expectations hold there.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../server/db/bulkJournal.ts';
import { upsertRows } from '../../server/services/dataRows.ts';
import { charactersOf, columnsOf, type StoredFields } from '../../server/workers/rowColumns.ts';
import {
  ROOT,
  createApplication,
  startDataServer,
  tableState,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';
import { restartOnSameData, type TestServer } from './harness.ts';
import { OTHER_APPLICATION, OTHER_PLACES_CSV, p95 } from './sharingFixtures.ts';
import { HttpClient } from './httpClient.ts';

const CONFIGURATION = `OA_version: 2.0.1
OA_application: {OA_name: sharing, OA_version: 1.0.0}
OA_data:
  big:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      value:
        OA_checker: {OA_name: OA_integer}
  small:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  fresh:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      value:
        OA_checker: {OA_name: OA_integer}
`;
/**
 * Enough rows that checked batches are written while the file is still being checked (the writing begins once
 * some megabytes of them wait), in many batches.
 */
const ROWS = 12_000;

/** A file of `count` rows whose labels say `tag` and whose values are `value`; `broken` spoils the last line. */
function bigCsv(count: number, tag: string, value: number, broken = false) {
  const lines = ['code;label;value'];
  for (let index = 0; index < count; index += 1)
    lines.push(`c${String(index).padStart(6, '0')};${tag} row ${index} ${'x'.repeat(60)};${value}`);
  if (broken) lines[lines.length - 1] = `${lines[lines.length - 1].split(';').slice(0, 2).join(';')};not-a-number`;
  return lines.join('\n') + '\n';
}

let data: DataServer;
/** The server on the same data after a restart: closed before the first, which removes the data. */
let restarted: TestServer | undefined;
const db = () => (restarted ?? data.server).server.ctx.db;
const embedded = () => !data.server.databaseUrl;

/** Rows of an entry as the database holds them now, bypassing the server's gate: what a half-done upload leaves. */
async function storedNow(entry = 'big'): Promise<number> {
  const result = await sql<{
    count: number;
  }>`select count(*)::int as count from data_rows where data_name = ${entry}`.execute(db());
  return Number(result.rows[0].count);
}

async function journalLeft() {
  const writes = await db().selectFrom('bulk_writes').select('id').execute();
  const tables = await sql<{
    name: string;
  }>`select tablename as name from pg_tables where schemaname = 'bulk_journal'`.execute(db());
  return { writes: writes.length, tables: tables.rows.length };
}

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'sharing', CONFIGURATION);
  await createApplication(data.admin, 'other', OTHER_APPLICATION);
  expect((await uploadReference(data.admin, 'other', 'places', 'places.csv', OTHER_PLACES_CSV)).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await restarted?.close();
  await data?.server.close();
});

describe('a large upload', () => {
  it('into an empty entry records no row in its journal, and failing on its last line leaves the entry empty', async () => {
    let done = false;
    const journaledRows: number[] = [];
    const uploaded = uploadReference(
      data.admin,
      'sharing',
      'fresh',
      'fresh.csv',
      bigCsv(ROWS, 'fresh', 1, true),
    ).finally(() => (done = true));
    let writtenHalfWay = 0;
    while (!done) {
      const writes = await db().selectFrom('bulk_writes').select(['empty_before', 'journal']).execute();
      for (const write of writes) {
        expect(write.empty_before).toBe(true);
        // The write may end between the two statements, its journal gone with it.
        const lines = await sql<{
          count: number;
        }>`select count(*)::int as count from ${sql.table(`bulk_journal.${write.journal}`)}`
          .execute(db())
          .catch(() => undefined);
        if (lines) journaledRows.push(Number(lines.rows[0].count));
        writtenHalfWay = Math.max(writtenHalfWay, await storedNow('fresh'));
      }
    }
    const answer = await uploaded;
    expect([answer.status, answer.body.code], answer.text).toEqual([400, 'INVALID_CSV']);
    if (embedded()) {
      expect(journaledRows.length).toBeGreaterThan(0);
      expect(writtenHalfWay, 'batches were written before the last line was checked').toBeGreaterThan(0);
    }
    expect(journaledRows.filter((count) => count > 0)).toEqual([]);
    expect(await storedNow('fresh')).toBe(0);
    expect(await journalLeft()).toEqual({ writes: 0, tables: 0 });
  }, 120_000);

  it('leaves other users answered while it is written, and some between its first and last batch', async () => {
    let done = false;
    const times: number[] = [];
    /** Pages answered while part of the upload, not all of it, was stored. */
    let answeredHalfWay = 0;
    const started = performance.now();
    let uploadMs = 0;
    const uploaded = uploadReference(data.admin, 'sharing', 'big', 'big.csv', bigCsv(ROWS, 'first', 1)).finally(
      () => ((done = true), (uploadMs = performance.now() - started)),
    );
    while (!done || times.length < 5) {
      const sent = performance.now();
      const page = await data.admin.get('/applications/other/references/places');
      expect(page.status).toBe(200);
      times.push(performance.now() - sent);
      const stored = await storedNow();
      if (stored > 0 && stored < ROWS) answeredHalfWay += 1;
    }
    const answer = await uploaded;
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.totalRows).toBe(ROWS);
    // Before, every page waited for the whole upload. The 300 ms target is measured by `npm run bench -- --only
    // sharing`, not here: on a busy machine a timed assertion measures the machine.
    expect(p95(times)).toBeLessThan(uploadMs / 2);
    // On PostgreSQL nothing of the upload shows before its commit: there is no half-way to observe.
    if (embedded()) expect(answeredHalfWay).toBeGreaterThan(0);
    expect(await journalLeft()).toEqual({ writes: 0, tables: 0 });
  }, 120_000);

  it('is seen by readers of its entry before or after, never half-way', async () => {
    let done = false;
    const seen: string[] = [];
    const uploaded = uploadReference(
      data.admin,
      'sharing',
      'big',
      'big.csv',
      bigCsv(ROWS + 2_000, 'second', 2),
    ).finally(() => (done = true));
    while (!done) {
      const answer = await data.admin.get('/applications/sharing/references/big/rows');
      expect(answer.status).toBe(200);
      const rows = answer.text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { values: { label: string; value: string } });
      const labels = new Set(rows.map((row) => `${row.values.label.split(' ')[0]} ${row.values.value}`));
      seen.push(`${rows.length} rows: ${[...labels].sort().join(', ')}`);
    }
    expect((await uploaded).status).toBe(201);
    expect(seen.length).toBeGreaterThan(0);
    // On PostgreSQL the feed reads its pages in statements of their own (read committed), so a commit between two
    // pages shows in the later ones: a limit of streamed exports there, older than this test, left as it was.
    const states = embedded() ? seen : seen.filter((state) => !state.includes(', '));
    for (const state of states) expect([`${ROWS} rows: first 1`, `${ROWS + 2_000} rows: second 2`]).toContain(state);
  }, 120_000);

  it('that fails on its last line leaves the entry exactly as it was, and no journal', async () => {
    const before = await tableState(data.admin, 'sharing', 'big');
    let journaled = false;
    let done = false;
    const uploaded = uploadReference(
      data.admin,
      'sharing',
      'big',
      'big.csv',
      bigCsv(ROWS + 4_000, 'third', 3, true),
    ).finally(() => (done = true));
    // On the embedded database, batches were written (and journaled) before the last line was checked.
    while (!done) if ((await journalLeft()).writes > 0) journaled = true;
    const answer = await uploaded;
    expect([answer.status, answer.body.code], answer.text).toEqual([400, 'INVALID_CSV']);
    expect(answer.body.errors[0].lineNumber).toBe(ROWS + 4_001);
    if (embedded()) expect(journaled).toBe(true);
    expect(await tableState(data.admin, 'sharing', 'big')).toEqual(before);
    expect(await journalLeft()).toEqual({ writes: 0, tables: 0 });
  }, 120_000);
});

describe('a write interrupted by a crash', () => {
  it('is undone at the next start, before anything is served', async () => {
    const before = await tableState(data.admin, 'sharing', 'big');
    const application = await db()
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'sharing')
      .executeTakeFirstOrThrow();
    const entryVersion = async () =>
      Number(
        (
          await db()
            .selectFrom('entry_counts')
            .select('version')
            .where('application_id', '=', application.id)
            .where('data_name', '=', 'big')
            .executeTakeFirstOrThrow()
        ).version,
      );
    const versionBefore = await entryVersion();
    // A write's first batches, committed with their journal, as a crash would leave them: rows changed and added.
    const journal = await openJournal(db(), application.id, 'big');
    const rows: StoredFields[] = [
      {
        id: crypto.randomUUID(),
        naturalKey: 'c000000',
        hierarchicalKey: 'c000000',
        values: { code: 'c000000', label: 'crashed', value: '9' },
        refs: [],
        lineNumber: 2,
      },
      {
        id: crypto.randomUUID(),
        naturalKey: 'znew',
        hierarchicalKey: 'znew',
        values: { code: 'znew', label: 'crashed', value: '9' },
        refs: [],
        lineNumber: 3,
      },
    ];
    const batchOf = (fields: StoredFields[]) => {
      const columns = columnsOf(fields);
      return { columns, characters: charactersOf(columns), count: fields.length };
    };
    await db()
      .transaction()
      .execute((trx) => upsertRows(trx, application.id, 'big', batchOf(rows), journal));
    expect(await storedNow()).toBe(before.rows.length + 1);
    // And a first load into an empty entry, which records nothing per row.
    const first = await openJournal(db(), application.id, 'fresh');
    expect(first.emptyBefore).toBe(true);
    const freshRows = rows.map((row) => ({ ...row, id: crypto.randomUUID() }));
    await db()
      .transaction()
      .execute((trx) => upsertRows(trx, application.id, 'fresh', batchOf(freshRows), first));
    expect(await storedNow('fresh')).toBe(rows.length);

    restarted = await restartOnSameData(data.server);
    expect(await journalLeft()).toEqual({ writes: 0, tables: 0 });
    const admin = new HttpClient(restarted.url + '/api/v1');
    expect((await admin.post('/login', { form: { login: ROOT.login, password: ROOT.password } })).status).toBe(200);
    expect(await tableState(admin, 'sharing', 'big')).toEqual(before);
    expect(await storedNow('fresh')).toBe(0);
    // Its rows were there to be read, then taken back: whoever read them (a backup) must see the entry changed.
    expect(await entryVersion()).toBeGreaterThan(versionBefore);
  }, 120_000);
});
