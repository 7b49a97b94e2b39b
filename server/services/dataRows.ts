import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoredRow } from '../../src/domain/csv/index.ts';
import { checkedAgainst } from '../../src/domain/configuration/checkedAgainst.ts';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { ReferenceIndex, spellingKeys, valuesRead } from '../../src/domain/csv/references.ts';
import { RowTexts, designatedRows, writtenReferences, type WrittenRow } from '../../src/domain/rows/rowTexts.ts';
import type { Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import type { RowColumns } from '../workers/rowColumns.ts';
import { holdsOwnRows, type BulkJournal } from '../db/bulkJournal.ts';
import { whileReading, whileWriting } from './entryGate.ts';
import { rowsByEitherKey } from './rowsByEitherKey.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { applying } from '../db/appliedWork.ts';
import { entryLockKey } from './pointedRows.ts';
import { listedReadable, rowsPointingTo } from './pointingRows.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * Inserts a batch of rows, or updates the stored row with the same natural key when it differs; answers what the
 * batch did to the stored rows (`BatchWritten`). A reference is usually sent again whole with a few lines changed:
 * the rows it leaves as they were are not rewritten (no new row version, no index entries, nothing for the vacuum).
 * One multi-row statement per batch, its rows sent as the column texts the checking worker built (`rowColumns`),
 * the same SQL on PostgreSQL and on the embedded database.
 * Rows of data with a time scope keep their period: rights limited to a period and the synthesis read it. With a
 * `journal` of an entry that held rows, what the batch replaces is recorded first (bulkJournal.ts). Into an entry
 * that held no rows when the write began, and that no one else writes meanwhile (`intoEmptyEntry`, or a journal
 * saying so), the rows are plainly inserted: there is nothing to replace, the file never repeats a natural key
 * (the CSV engine gives no row repeating one), and an insert that need not look for a conflict costs about a
 * third less.
 */
export async function upsertRows(
  db: Db,
  applicationId: string,
  dataName: string,
  rows: CheckedBatch,
  journal?: BulkJournal,
  intoEmptyEntry = journal?.emptyBefore ?? false,
): Promise<BatchWritten> {
  const source = rowColumnsSource(rows.columns);
  if (intoEmptyEntry) {
    const inserted = await sql`
      insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end)
      select u.id, ${applicationId}, ${dataName}, u.nk, u.hk, u.v, u.r, u.ln, u.ps, u.pe from ${source}`.execute(db);
    const added = Number(inserted.numAffectedRows ?? 0);
    return { written: added, added, replaced: 0 };
  }
  // Journaled, the statement first records the rows as stored before it (its parts share one snapshot), looked up
  // row by row: a join could hash the whole entry at every batch. Into an entry that was empty there is none.
  const recorded = journal && !journal.emptyBefore ? journal : undefined;
  const journaled = recorded
    ? sql`
    u as materialized (select * from ${source}),
    journaled as (
      insert into ${recorded.table} (natural_key, prior)
      select u.nk, (select to_jsonb(before) from data_rows as before
                    where before.application_id = ${applicationId} and before.data_name = ${dataName}
                      and before.natural_key = u.nk and before.file_id is null)
      from u
      on conflict (natural_key) do nothing),`
    : sql``;
  // A row the statement inserted has no xmax; one it updated carries the lock its conflict took. Rows left as they
  // were are not returned: with no key repeated in a file, the batch's other rows are the stored rows it replaced.
  const result = await sql<{ written: number; added: number }>`
    with ${journaled} stored_now as (
    insert into data_rows as stored (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number, period_start, period_end)
    select u.id, ${applicationId}, ${dataName}, u.nk, u.hk, u.v, u.r, u.ln, u.ps, u.pe
    from ${recorded ? sql`u` : source}
    on conflict (application_id, data_name, natural_key) where file_id is null
    do update set hierarchical_key = excluded.hierarchical_key, values = excluded.values, refs = excluded.refs,
                  line_number = excluded.line_number, period_start = excluded.period_start, period_end = excluded.period_end,
                  updated_at = now()
    where (stored.hierarchical_key, stored.values, stored.refs, stored.line_number, stored.period_start, stored.period_end)
          is distinct from (excluded.hierarchical_key, excluded.values, excluded.refs, excluded.line_number, excluded.period_start, excluded.period_end)
    returning stored.xmax = 0 as added)
    select count(*)::int as written, (count(*) filter (where added))::int as added from stored_now`.execute(db);
  const { written, added } = result.rows[0];
  return { written, added, replaced: rows.count - added };
}

/**
 * What writing rows did to an entry's stored rows: `written` counts those it inserted or changed (a row sent again
 * as it was is not rewritten), `added` those whose natural key was not stored, `replaced` those whose key was.
 */
export interface BatchWritten {
  written: number;
  added: number;
  replaced: number;
}

export const NOTHING_WRITTEN: BatchWritten = { written: 0, added: 0, replaced: 0 };

/** Two writes' counts together. */
export const bothWritten = (a: BatchWritten, b: BatchWritten): BatchWritten => ({
  written: a.written + b.written,
  added: a.added + b.added,
  replaced: a.replaced + b.replaced,
});

/**
 * A batch's rows as a table `u (id, nk, hk, v, r, ln, ps, pe)`: each column one array parameter, unnested together,
 * the values' JSON texts and the row's keys cast once there.
 */
export function rowColumnsSource(columns: RowColumns) {
  return sql`(select id, nk, hk, v::jsonb as v, r::text[] as r, ln, ps, pe
    from unnest(${columns.ids}::uuid[], ${columns.naturalKeys}::text[], ${columns.hierarchicalKeys}::text[],
                ${columns.values}::text[], ${columns.refs}::text[], ${columns.lineNumbers}::integer[],
                ${columns.periodStarts}::timestamp[], ${columns.periodEnds}::timestamp[])
      as c(id, nk, hk, v, r, ln, ps, pe)) as u`;
}

/**
 * Makes the transaction the entry's only writer until it ends (a PostgreSQL advisory lock: other instances' writes
 * to the entry wait for it), and answers whether the entry then holds no rows without a file.
 */
export async function claimEntryForWrite(trx: Transaction<Schema>, applicationId: string, dataName: string) {
  await lockEntryAcrossInstances(trx, applicationId, dataName);
  return !(await holdsOwnRows(trx, applicationId, dataName));
}

/**
 * Holds the entry until the transaction ends: the other transactions asking for it, on any instance, wait. Uploads
 * of rows and publications take it (an entry's gate, entryGate.ts, holds only in its own process).
 */
export async function lockEntryAcrossInstances(trx: Transaction<Schema>, applicationId: string, dataName: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${applicationId}/${dataName}`}, 0))`.execute(trx);
}

/**
 * A write that changes an entry by at least this many rows refreshes the planner's statistics of the rows table:
 * PGlite never analyzes by itself and PostgreSQL's autovacuum comes late, and until then the planner takes a large
 * entry for an empty one (a first page would sort every row instead of walking the natural-key index). ANALYZE
 * reads a sample of fixed size, a fraction of a second whatever the table.
 */
const ANALYZE_AFTER_ROWS = 10_000;

/**
 * Recounts the stored rows of an entry (kept for the cards, the trees and the update checks) and raises its write
 * version. The entry's count row is locked before its rows are counted: a writer of the entry holds it from there to
 * its commit, and the next one counts (in a new statement, so a new snapshot) once that commit is seen. Counted in
 * the statement that wrote the count, two writers committing together each missed the other's rows, and the last
 * one's count stood (PostgreSQL).
 */
export async function refreshCount(db: Db, applicationId: string, dataName: string): Promise<number> {
  const ofEntry = sql`application_id = ${applicationId} and data_name = ${dataName}`;
  await sql`insert into entry_counts (application_id, data_name, line_count) values (${applicationId}, ${dataName}, 0)
    on conflict (application_id, data_name) do nothing`.execute(db);
  const previous = await sql<{ line_count: number }>`
    select line_count from entry_counts where ${ofEntry} for update`.execute(db);
  const row = await sql<{ count: number }>`
    update entry_counts set line_count = (select count(*) from data_rows where ${ofEntry}), version = version + 1
    where ${ofEntry} returning line_count as count`.execute(db);
  const count = Number(row.rows[0]?.count ?? 0);
  // Run in the write's transaction, ANALYZE waits for the table's ShareUpdateExclusiveLock, which a concurrent
  // index build (`create index concurrently`, filterIndexes.ts) holds while it waits for this transaction to end:
  // a deadlock, and the whole upload lost. Skipped when the lock is taken: the build analyzes the table itself.
  if (Math.abs(count - Number(previous.rows[0]?.line_count ?? 0)) >= ANALYZE_AFTER_ROWS)
    await sql`analyze (skip_locked) data_rows`.execute(db);
  return count;
}

/** The stored count of an entry's rows. */
export async function storedCount(db: Db, applicationId: string, dataName: string): Promise<number> {
  const row = await db
    .selectFrom('entry_counts')
    .select('line_count')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .executeTakeFirst();
  return Number(row?.line_count ?? 0);
}

/** The entry's write version: 0 before its first write, raised by every write that changed its rows. */
export async function writeVersion(db: Db, applicationId: string, dataName: string): Promise<number> {
  const row = await db
    .selectFrom('entry_counts')
    .select('version')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * The entry's count after a write of `written` rows: recounted, with its version raised, when rows changed; a file
 * that changed nothing leaves the version, and what was read of the entry, as they were.
 */
export async function countAfterWrite(
  db: Db,
  applicationId: string,
  dataName: string,
  written: number,
): Promise<number> {
  return written > 0 ? refreshCount(db, applicationId, dataName) : storedCount(db, applicationId, dataName);
}

export async function rowCounts(db: Db, applicationId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('entry_counts')
    .select(['data_name', 'line_count'])
    .where('application_id', '=', applicationId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.data_name, Number(r.line_count)]));
}

/**
 * The stored rows a file of `entry` may refer to, by data name: the entries it depends on, and its own rows when it
 * refers to itself (`checkedAgainst`), loaded once per upload and sent to the checking worker with the file. Only
 * what the check reads of them (`valuesRead`): for most references their keys.
 */
export async function referenceRowsFor(
  db: Db,
  applicationId: string,
  model: ApplicationModel,
  entry: DataEntry,
): Promise<Record<string, StoredRow[]>> {
  const loaded: Record<string, StoredRow[]> = {};
  for (const name of checkedAgainst(entry)) {
    if (!model.data.some((d) => d.name === name)) continue;
    const read = valuesRead(entry, name);
    loaded[name] = await whileReading(applicationId, name, () => everyRowOf(db, applicationId, name, read));
  }
  return loaded;
}

/** Rows read by one statement of `everyRowOf`. */
export const REFERENCE_READ_PAGE = 10_000;

/**
 * Every row of an entry as the check reads it (`read`), a page at a time in a stable order: one statement over a
 * reference of hundreds of thousands of rows held the embedded database's one session, and the thread it runs on,
 * for seconds; between pages, other requests' statements go first. The rows without a file come first, in
 * natural-key order (the index's), then those of published versions, which only an entry referring to itself has
 * to read: their natural keys repeat from one version to the next, and rows alike in all the check reads come
 * once (a reference index keeps one row per key; an expression reading the rows sees every version's).
 */
async function everyRowOf(db: Db, applicationId: string, name: string, read: 'every' | string[]): Promise<StoredRow[]> {
  const rows: StoredRow[] = [];
  const values =
    read === 'every'
      ? sql<string>`"values"`
      : read.length === 0
        ? sql<string>`'{}'::jsonb`
        : sql<string>`(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each("values") as e
                       where e.key = any(${read}::text[]))`;
  const ofEntry = sql`application_id = ${applicationId} and data_name = ${name}`;
  const keep = (page: Array<{ nk: string; hk: string; v: unknown }>) => {
    for (const r of page) rows.push({ naturalKey: r.nk, hierarchicalKey: r.hk, values: r.v as StoredRow['values'] });
  };
  let after: string | undefined;
  for (;;) {
    const page = await sql<{ nk: string; hk: string; v: unknown }>`
      select natural_key as nk, hierarchical_key as hk, ${values} as v from data_rows
      where ${ofEntry} and file_id is null ${after === undefined ? sql`` : sql`and natural_key > ${after}`}
      order by natural_key limit ${REFERENCE_READ_PAGE}`.execute(db);
    keep(page.rows);
    if (page.rows.length < REFERENCE_READ_PAGE) break;
    after = page.rows[page.rows.length - 1].nk;
  }
  // Ordered and paged by the keys, then by what tells two rows apart: the row's id when every value is read
  // (nothing is left out), else the text of the values read, rows alike grouped into one. Grouped, not `distinct
  // on`: with that PostgreSQL sorted the entry's every version for each page instead of walking the index.
  const every = read === 'every';
  const tail = every ? sql`id` : sql`(${values})::text`;
  let last: { nk: string; hk: string; t: string } | undefined;
  for (;;) {
    const page = await sql<{ nk: string; hk: string; v: unknown; t: string }>`
      select nk, hk, v, t from (
        select natural_key as nk, hierarchical_key as hk, ${every ? sql`"values"` : sql`null::jsonb`} as v, ${tail} as t
        from data_rows
        where ${ofEntry} and file_id is not null
          ${last === undefined ? sql`` : sql`and (natural_key, hierarchical_key, ${tail}) > (${last.nk}, ${last.hk}, ${last.t})`}
      ) as versioned
      ${every ? sql`` : sql`group by nk, hk, t, v`}
      order by nk, hk, t limit ${REFERENCE_READ_PAGE}`.execute(db);
    keep(every ? page.rows : page.rows.map((r) => ({ ...r, v: JSON.parse(r.t) as unknown })));
    if (page.rows.length < REFERENCE_READ_PAGE) break;
    last = page.rows[page.rows.length - 1];
  }
  return rows;
}

/** The keys of every row of a reference, to write back the rows that designate them. */
async function referenceKeys(db: Db, applicationId: string, name: string): Promise<ReferenceIndex> {
  const rows = await db
    .selectFrom('data_rows')
    .select(['natural_key', 'hierarchical_key'])
    .where('application_id', '=', applicationId)
    .where('data_name', '=', name)
    .orderBy('natural_key')
    .execute();
  return new ReferenceIndex(name, rows.map(keysOnly));
}

const keysOnly = (r: { natural_key: string; hierarchical_key: string }): StoredRow => ({
  naturalKey: r.natural_key,
  hierarchicalKey: r.hierarchical_key,
  values: {},
});

/**
 * How an entry's stored rows are written back as the texts of a file (backups, rechecks): with the keys of every
 * row their references may designate, read as the CSV engine reads them on upload.
 */
export async function rowTextsFor(db: Db, applicationId: string, entry: DataEntry): Promise<RowTexts> {
  const indexes = new Map<string, ReferenceIndex>();
  for (const name of writtenReferences(entry)) indexes.set(name, await referenceKeys(db, applicationId, name));
  return new RowTexts(entry, (name) => indexes.get(name) ?? new ReferenceIndex(name));
}

/** A reference over this many rows is read for an export a page of rows at a time. */
const WHOLE_REFERENCE_ROWS = 20_000;

/**
 * How the pages of an export are written back as texts: the keys of a small reference read once, those of a large
 * one for each page (the rows it designates, and those their spellings may name: `designatedRows`,
 * `keysDesignatedBy`). Anyone who may export a data type pointing to a reference of a million rows would otherwise
 * hold all its keys in the server's memory with each export.
 */
export async function exportRowTexts(
  db: Db,
  applicationId: string,
  model: ApplicationModel,
  entry: DataEntry,
): Promise<(rows: readonly WrittenRow[]) => Promise<RowTexts>> {
  const counts = await rowCounts(db, applicationId);
  const whole = new Map<string, ReferenceIndex>();
  const large: string[] = [];
  for (const name of writtenReferences(entry)) {
    if ((counts[name] ?? 0) > WHOLE_REFERENCE_ROWS) large.push(name);
    else whole.set(name, await referenceKeys(db, applicationId, name));
  }
  const fromWhole = (name: string) => whole.get(name) ?? new ReferenceIndex(name);
  if (large.length === 0) {
    const texts = new RowTexts(entry, fromWhole);
    return async () => texts;
  }
  return async (rows) => {
    const designated = designatedRows(entry, rows);
    const paged = new Map<string, ReferenceIndex>();
    for (const name of large) {
      const parts = model.data.find((d) => d.name === name)?.naturalKey.length ?? 1;
      paged.set(name, await rowsNamedBy(db, applicationId, name, [...(designated.get(name) ?? [])], parts));
    }
    return new RowTexts(entry, (name) => paged.get(name) ?? fromWhole(name));
  };
}

/** The rows of `hierarchicalKeys` and those any of their spellings may designate, by index look-ups. */
async function rowsNamedBy(
  db: Db,
  applicationId: string,
  name: string,
  hierarchicalKeys: string[],
  keyParts: number,
): Promise<ReferenceIndex> {
  if (hierarchicalKeys.length === 0) return new ReferenceIndex(name);
  const keysOf = (keys: string[]) =>
    rowsByEitherKey(
      () =>
        db
          .selectFrom('data_rows')
          .select(['natural_key', 'hierarchical_key'])
          .where('application_id', '=', applicationId)
          .where('data_name', '=', name),
      keys,
    ).execute();
  const designated = (await keysOf(hierarchicalKeys)).map(keysOnly);
  return new ReferenceIndex(name, (await keysOf(spellingKeys(designated, keyParts))).map(keysOnly));
}

/**
 * Deletes rows (without a file) by id or natural key and recounts; answers the ids deleted. A caller who may delete
 * only part of the entry (`allowed`) is refused when one of the rows named is outside that part, and alike when one
 * names no row: telling the two apart would tell them which rows exist outside their rights.
 */
export async function deleteDataRows(
  db: Kysely<Schema>,
  applicationId: string,
  dataName: string,
  selection: { rowIds: string[]; naturalKeys: string[] },
  readsWhole: (dataName: string) => boolean,
  allowed?: (row: { values: Record<string, unknown>; period_start: Date | null; period_end: Date | null }) => boolean,
): Promise<string[]> {
  const { rowIds, naturalKeys } = selection;
  // Ids as the database writes them: a text that is no UUID names no row.
  const uuids = rowIds.filter(isUuid).map((id) => id.toLowerCase());
  return whileWriting(applicationId, dataName, () =>
    db.transaction().execute((trx) =>
      applying(trx, async () => {
        // Data types may be pointed to as references are: alone among the entry's writers and after the writes
        // pointing to it, as `deleteReferenceRows` (pointedRows.ts).
        await sql`select pg_advisory_xact_lock(${entryLockKey(applicationId, dataName)})`.execute(trx);
        const rows = await trx
          .selectFrom('data_rows')
          .select(['id', 'natural_key', 'hierarchical_key', 'values', 'period_start', 'period_end'])
          .where('application_id', '=', applicationId)
          .where('data_name', '=', dataName)
          .where('file_id', 'is', null)
          .where(sql<boolean>`(id = any(${uuids}::uuid[]) or natural_key = any(${naturalKeys}::text[]))`)
          .execute();
        if (allowed) {
          const [ids, keys] = [new Set(rows.map((row) => row.id)), new Set(rows.map((row) => row.natural_key))];
          const namesNone =
            rowIds.some((id) => !ids.has(id.toLowerCase())) || naturalKeys.some((key) => !keys.has(key));
          if (namesNone || rows.some((row) => !allowed(row)))
            throw new Refusal('NO_RIGHT_FOR_DELETE_RIGHTS_APPLICATION', { dataName });
        }
        if (rows.length === 0) return [];
        const ids = rows.map((row) => row.id);
        const referring = await rowsPointingTo(
          trx,
          applicationId,
          rows.map((row) => row.hierarchical_key),
          ids,
        );
        if (referring.length > 0)
          throw new Refusal('REFERENCED_ROWS', {
            referring: listedReadable(referring, readsWhole),
            referringMore: referring.more,
          });
        await trx
          .deleteFrom('data_rows')
          .where(sql<boolean>`id = any(${ids}::uuid[])`)
          .execute();
        await refreshCount(trx, applicationId, dataName);
        return ids;
      }),
    ),
  );
}
