import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { letRequestsThrough } from '../db/sessionOrder.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { refreshCount, rowColumnsSource } from './dataRows.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * Rows of a version deleted per statement on the embedded database: each statement is a transaction of its own,
 * as short as a write's batch (entryWrite.ts), with requests let through in between.
 */
const REMOVE_STEP = 500;

/** A batch of rows of a published version, with the file they come from and the period each covers. */
export async function insertVersionRows(
  db: Db,
  applicationId: string,
  dataName: string,
  fileId: string,
  batch: CheckedBatch,
) {
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, file_id, period_start, period_end)
    select u.id, ${applicationId}, ${dataName}, u.nk, u.hk, u.v, u.r, u.ln, ${fileId}, u.ps, u.pe
    from ${rowColumnsSource(batch.columns)}`.execute(db);
}

/**
 * Deletes the rows of a version a step at a time, letting other users' requests through in between: on the
 * embedded database a single delete of a large version held its one session, and every user, for seconds.
 */
export function removeVersionRowsInSteps(db: Kysely<Schema>, fileId: string): Promise<void> {
  return removeRowsInSteps(db, sql`file_id = ${fileId}`);
}

/** Deletes the rows `which` names a step at a time, letting other users' requests through in between. */
export async function removeRowsInSteps(db: Kysely<Schema>, which: RawBuilder<unknown>): Promise<void> {
  for (;;) {
    const begun = performance.now();
    const removed = await sql`
      delete from data_rows where id in (select id from data_rows where ${which} limit ${REMOVE_STEP})`.execute(db);
    if (Number(removed.numAffectedRows ?? 0) === 0) return;
    await letRequestsThrough(performance.now() - begun);
  }
}

/**
 * On the embedded database a version's rows exist only while it is published: a publication writes them before
 * the short transaction that marks the version published, an unpublication or a deletion removes them after the
 * one that marks it unpublished (publication.ts). Rows of a version that is not published are therefore what a
 * crash or a failure left of either: removed at start, before anything is served (or in `entry` after a
 * failure); answers the entries counted again.
 */
export async function removeRowsOfUnpublishedVersions(
  db: Kysely<Schema>,
  entry?: { applicationId: string; dataName: string },
): Promise<Array<{ applicationId: string; dataName: string }>> {
  const leftovers = await sql<{ id: string; application_id: string; data_name: string }>`
    select f.id, f.application_id, f.data_name from deposit_files f
    where not f.published and exists (select 1 from data_rows d where d.file_id = f.id)
      ${entry ? sql`and f.application_id = ${entry.applicationId} and f.data_name = ${entry.dataName}` : sql``}`.execute(
    db,
  );
  const entries = new Map<string, { applicationId: string; dataName: string }>();
  if (entry) entries.set('', entry);
  for (const file of leftovers.rows) {
    await removeVersionRowsInSteps(db, file.id);
    if (!entry)
      entries.set(`${file.application_id}\u0000${file.data_name}`, {
        applicationId: file.application_id,
        dataName: file.data_name,
      });
  }
  for (const { applicationId, dataName } of entries.values()) await refreshCount(db, applicationId, dataName);
  return [...entries.values()];
}
