/**
 * On PostgreSQL a write to an entry's rows claims the entry for its transaction (claimEntryForWrite): a second
 * writer waits for the first to end, then sees its rows, so that only a write into a truly empty entry inserts
 * without looking for conflicts. The embedded database has one session and its own lock (entryGate.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimEntryForWrite, upsertRows } from '../../server/services/dataRows.ts';
import { charactersOf, columnsOf } from '../../server/workers/rowColumns.ts';
import { timeOrderedId } from '../../server/workers/timeOrderedId.ts';
import { startTestServer, type TestServer } from './harness.ts';

const batchOf = (keys: string[]) => {
  const columns = columnsOf(
    keys.map((key, index) => ({
      id: timeOrderedId(),
      naturalKey: key,
      hierarchicalKey: key,
      values: { code: key },
      refs: [],
      lineNumber: index + 2,
    })),
  );
  return { columns, characters: charactersOf(columns), count: keys.length };
};

describe.skipIf(!process.env.DATABASE_URL)('claiming an entry for a write (PostgreSQL)', () => {
  let server: TestServer;
  let applicationId: string;
  beforeAll(async () => {
    server = await startTestServer();
    // Rows name their application without a foreign key (migration 0019): none is needed to claim an entry.
    applicationId = crypto.randomUUID();
  });
  afterAll(() => server?.close());

  it('makes a second writer wait for the first, then see its rows as not empty', async () => {
    const db = server.server.ctx.db;
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstClaimed!: () => void;
    const claimed = new Promise<void>((resolve) => (firstClaimed = resolve));
    const first = db.transaction().execute(async (trx) => {
      const empty = await claimEntryForWrite(trx, applicationId, 'sites');
      await upsertRows(trx, applicationId, 'sites', batchOf(['a', 'b']), undefined, empty);
      firstClaimed();
      await firstMayCommit;
      order.push('first commits');
      return empty;
    });
    await claimed;
    const second = db.transaction().execute(async (trx) => {
      const empty = await claimEntryForWrite(trx, applicationId, 'sites');
      order.push('second claimed');
      await upsertRows(trx, applicationId, 'sites', batchOf(['b', 'c']), undefined, empty);
      return empty;
    });
    // The second waits for its claim while the first holds the entry.
    await expect
      .poll(async () => {
        const waiting = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`.execute(db);
        return waiting.rows[0].waiting;
      })
      .toBe(1);
    expect(order).toEqual([]);
    releaseFirst();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(order).toEqual(['first commits', 'second claimed']);
    const keys = await db
      .selectFrom('data_rows')
      .select('natural_key')
      .where('application_id', '=', applicationId)
      .orderBy('natural_key')
      .execute();
    expect(keys.map((row) => row.natural_key)).toEqual(['a', 'b', 'c']);
  });
});
