import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Schema } from './schema.ts';
import { letRequestsThrough } from './sessionOrder.ts';

/**
 * Journal lines undone per statement: each statement is a transaction of its own, as short as a write's batch
 * (entryWrite.ts), with requests let through in between.
 */
const UNDO_STEP = 500;

/**
 * What a large write on the embedded database replaced, so that it can be undone: the embedded database has one
 * session, and a write of hundreds of thousands of rows in one transaction held it, and every other user, for the
 * whole upload. So such a write commits batch after batch, and each batch's statement first records, for every
 * natural key it writes, the row stored before the write began (`prior`, null when there was none). The journal
 * is a table of its own (`bulk_journal.w_<id>`), named in `bulk_writes`: dropping it with that line, in the
 * transaction that ends the write, is the write's commit (a drop costs the same whatever the journal holds). A
 * write that fails is undone from its journal, a step at a time; one left by a crash is undone at the next start
 * (`undoUnfinishedWrites`), before anything is served. A write into an entry holding no rows of its own (a first
 * load, the largest) records nothing per row: its undo deletes the entry's rows without a file, and recording cost
 * it almost half of its time.
 */
export interface BulkJournal {
  /** The journal table: the batch statement writes into it (dataRows.ts, `upsertRows`) unless `emptyBefore`. */
  readonly table: RawBuilder<unknown>;
  /** The entry held no rows without a file when the write began: its batches record nothing. */
  readonly emptyBefore: boolean;
  /** Ends the write within `trx`, the transaction of its last statements: the journal goes, the rows stay. */
  close(trx: Transaction<Schema>): Promise<void>;
  /** Puts every row the write touched back as it was, and drops the journal. */
  undo(db: Kysely<Schema>): Promise<void>;
}

const journalTable = (name: string) => sql.table(`bulk_journal.${name}`);

/** Whether an entry holds rows of its own (without a file: references and unversioned data). */
export async function holdsOwnRows(
  db: Kysely<Schema> | Transaction<Schema>,
  applicationId: string,
  dataName: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('data_rows')
    .select('id')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .where('file_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Starts the journal of a write to an entry's rows (those without a file: references and unversioned data). */
export async function openJournal(db: Kysely<Schema>, applicationId: string, dataName: string): Promise<BulkJournal> {
  const id = randomUUID();
  const name = `w_${id.replaceAll('-', '')}`;
  const emptyBefore = await db.transaction().execute(async (trx) => {
    const held = await holdsOwnRows(trx, applicationId, dataName);
    await sql`create table ${journalTable(name)} (natural_key text primary key, prior jsonb)`.execute(trx);
    await trx
      .insertInto('bulk_writes')
      .values({ id, application_id: applicationId, data_name: dataName, journal: name, empty_before: !held })
      .execute();
    return !held;
  });
  return journalOf({
    id,
    application_id: applicationId,
    data_name: dataName,
    journal: name,
    empty_before: emptyBefore,
  });
}

type Write = { id: string; application_id: string; data_name: string; journal: string; empty_before: boolean };

function journalOf(write: Write): BulkJournal {
  const table = journalTable(write.journal);
  const drop = async (trx: Transaction<Schema>) => {
    await sql`drop table ${table}`.execute(trx);
    await trx.deleteFrom('bulk_writes').where('id', '=', write.id).execute();
  };
  /**
   * Dropped once undone, with the entry's version raised: the rows are as before, but whoever read the entry in
   * between (a backup between its stamps) read rows that are gone, and must see that the entry changed.
   */
  const dropUndone = (trx: Transaction<Schema>) =>
    drop(trx).then(() =>
      trx
        .updateTable('entry_counts')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('application_id', '=', write.application_id)
        .where('data_name', '=', write.data_name)
        .execute(),
    );
  return {
    table,
    emptyBefore: write.empty_before,
    close: drop,
    async undo(db) {
      if (write.empty_before) {
        await deleteWrittenRows(db, write);
        await db.transaction().execute(dropUndone);
        return;
      }
      for (;;) {
        // One statement per step: the lines it takes leave the journal as their rows are put back, so a step
        // interrupted by a crash is whole or not at all, and the next start goes on from there.
        const begun = performance.now();
        const step = await sql<{ count: number }>`
          with done as (
            delete from ${table} where natural_key in (select natural_key from ${table} limit ${UNDO_STEP})
            returning natural_key, prior),
          restored as (
            update data_rows as d set hierarchical_key = p.hierarchical_key, values = p.values, refs = p.refs, line_number = p.line_number,
                   period_start = p.period_start, period_end = p.period_end, created_at = p.created_at, updated_at = p.updated_at
            from done cross join lateral jsonb_populate_record(null::data_rows, done.prior) as p
            where done.prior is not null and d.id = p.id
            returning 1),
          removed as (
            delete from data_rows as d using done
            where done.prior is null and d.application_id = ${write.application_id} and d.data_name = ${write.data_name}
              and d.natural_key = done.natural_key and d.file_id is null
            returning 1)
          select (select count(*) from done)::int as count`.execute(db);
        if (Number(step.rows[0]?.count ?? 0) === 0) break;
        await letRequestsThrough(performance.now() - begun);
      }
      await db.transaction().execute(dropUndone);
    },
  };
}

/** Undoes a write into an entry that held no rows without a file: every such row goes, a step at a time. */
async function deleteWrittenRows(db: Kysely<Schema>, write: Write): Promise<void> {
  for (;;) {
    const begun = performance.now();
    const step = await sql`
      delete from data_rows where id in (
        select id from data_rows
        where application_id = ${write.application_id} and data_name = ${write.data_name} and file_id is null
        limit ${UNDO_STEP})`.execute(db);
    if (Number(step.numAffectedRows ?? 0) === 0) return;
    await letRequestsThrough(performance.now() - begun);
  }
}

/** Undoes the writes a crash interrupted; answers the entries put back. Run at start, before serving. */
export async function undoUnfinishedWrites(
  db: Kysely<Schema>,
): Promise<Array<{ applicationId: string; dataName: string }>> {
  const writes = await db
    .selectFrom('bulk_writes')
    .select(['id', 'application_id', 'data_name', 'journal', 'empty_before'])
    .orderBy('started_at')
    .execute();
  for (const write of writes) await journalOf(write).undo(db);
  return writes.map((write) => ({
    applicationId: write.application_id,
    dataName: write.data_name,
  }));
}
