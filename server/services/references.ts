import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { localized } from '../../src/domain/applications/summary.ts';
import { rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { SpooledUpload } from './uploadSpool.ts';
import { findApplication } from './applications.ts';
import { writeEntryRows } from './entryWrite.ts';
import { whileWriting } from './entryGate.ts';
import { bothWritten, countAfterWrite, NOTHING_WRITTEN, refreshCount, storedCount } from './dataRows.ts';
import { ingestCsv, type IngestTarget } from './ingest.ts';
import { INDEXED_FROM_ROWS } from './filterIndexes.ts';
import { indexSuggestions } from './referenceSuggestions.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import { EXPORT_PAGE, readPage, rowFilterSql, type SelectedRow } from './rowQueries.ts';
import { answerValues } from '../../src/domain/rows/answerValues.ts';
import type { ColumnDescription, ReferencePage, RowView } from '../../src/contract/rows.ts';
import type { ReferenceLoaded } from '../../src/contract/references.ts';
import { followMoves, mayMoveRows, MovedRows, refuseStalePointers } from './movedRows.ts';
import { listedReadable, rowsPointingTo } from './pointingRows.ts';
import { applying } from '../db/appliedWork.ts';
import { entryLockKey, pointedEntries, PointedKeys } from './pointedRows.ts';

/** Reference files up to this size are accepted (a million rows of ten columns is about 60 MB). */
export const MAX_CSV_BYTES = 200 * 1024 * 1024;

/** An application and one of its data entries (a reference or a data type). */
export interface EntryContext {
  application: ApplicationRow;
  model: ApplicationModel;
  entry: DataEntry;
}

/** What checking a file of `entry` needs (ingest.ts), with the options of the write it feeds. */
export function ingestTargetOf(
  ctx: ServerContext,
  { application, model, entry }: EntryContext,
  fileName: string,
  options: Pick<IngestTarget, 'places' | 'batchRows' | 'deposit' | 'reader'> = {},
): IngestTarget {
  return { db: ctx.db, checks: ctx.checks, applicationId: application.id, model, entry, fileName, ...options };
}

/** The application and one of its references, or the refusal that says which is missing. */
export async function referenceOf(ctx: ServerContext, applicationName: string, refType: string): Promise<EntryContext> {
  const application = await findApplication(ctx, applicationName);
  const model = application.model;
  const entry = model.data.find((d) => d.name === refType && d.kind === 'reference');
  if (!entry) throw new Refusal('NO_SUCH_REFERENCE', { name: application.name, reference: refType });
  return { application, model, entry };
}

/**
 * The application and one of its entries, reference or data type: the newest OpenADOM treats references as data
 * types under `data/{name}`, and scripts written for it call them there.
 */
export async function entryOf(ctx: ServerContext, applicationName: string, name: string): Promise<EntryContext> {
  const application = await findApplication(ctx, applicationName);
  const model = application.model;
  const entry = model.data.find((d) => d.name === name);
  if (!entry) throw new Refusal('NO_SUCH_DATA_TYPE', { name: application.name, dataType: name });
  return { application, model, entry };
}

/** The application and one of its data types. */
export async function dataTypeOf(ctx: ServerContext, applicationName: string, dataType: string): Promise<EntryContext> {
  const application = await findApplication(ctx, applicationName);
  const model = application.model;
  const entry = model.data.find((d) => d.name === dataType && d.kind === 'dataType');
  if (!entry) throw new Refusal('NO_SUCH_DATA_TYPE', { name: application.name, dataType });
  return { application, model, entry };
}

/**
 * Reads a CSV stream, validates it with the shared CSV engine and stores it, every row or none (entryWrite.ts). Rows are inserted or updated by natural key; stored rows the file does not mention stay.
 * A file moving rows that others point to under another parent is refused whole (movedRows.ts); its refusal lists
 * the pointing rows of the entries the caller reads whole (`readsWhole`); its errors name only rows of references
 * the caller may be told of (namedReferenceRows.ts). Grants, rights requests and additional files naming a row it
 * moves follow it to its new key.
 */
export async function uploadReference(
  ctx: ServerContext,
  reference: EntryContext,
  file: SpooledUpload,
  rights: Rights,
): Promise<ReferenceLoaded> {
  const { application, model, entry } = reference;
  const readsWhole = (dataName: string) => rights.all('extraction', dataName);
  const indexes = () => indexSuggestions(ctx, application.id, model, entry);
  const moved = mayMoveRows(entry) ? new MovedRows(application.id, entry.name) : undefined;
  const loaded = await writeEntryRows(
    ctx,
    application.id,
    entry.name,
    async (write) => {
      let written = NOTHING_WRITTEN;
      const lineCount = await ingestCsv(
        ingestTargetOf(ctx, reference, file.fileName, { batchRows: write.batchRows, reader: rights }),
        file.stream,
        async (batch, failed) => {
          written = bothWritten(written, await write.upsert(batch, failed));
        },
        () => file.complete(),
      );
      const { totalRows, followed, stored } = await write.finish(async (db, kept) => {
        const stored = bothWritten(written, kept);
        await refuseStalePointers(db, application.id, moved, readsWhole);
        const followed = await followMoves(db, application.id, moved);
        return { totalRows: await countAfterWrite(db, application.id, entry.name, stored.written), followed, stored };
      });
      const { added, replaced } = stored;
      return {
        referenceType: entry.name,
        lineCount,
        added,
        replaced,
        totalRows,
        ...(followed ? { moved: followed } : {}),
      };
    },
    {
      arrival: file.arrival,
      moved,
      pointed: new PointedKeys(application.id, pointedEntries(model, entry)),
      modelVersion: application.model_version,
      // The embedded database answers nobody while it builds an index: built on an entry still small, the
      // suggestions' indexes are instant, and grow batch by batch with the load, other users getting through between.
      beforeLargeWrite: async () => {
        if ((await storedCount(ctx.db, application.id, entry.name)) < INDEXED_FROM_ROWS) await indexes();
      },
    },
  );
  // PostgreSQL builds them after the load without holding anyone (concurrently): before anyone searches.
  if (loaded.totalRows >= INDEXED_FROM_ROWS) void indexes();
  return loaded;
}

export function describeColumns(entry: DataEntry, locale: string, defaultLanguage: string): ColumnDescription[] {
  return entry.components
    .filter((c) => c.langRestrictions === null || c.langRestrictions.includes(locale))
    .map((c) => ({
      key: c.key,
      title: localized(c.exportHeader.title, locale, defaultLanguage, c.key),
      description: localized(c.exportHeader.description, locale, defaultLanguage),
      hidden: c.tags.hidden,
      order: c.tags.order,
      checker: c.checker?.kind ?? null,
      ...(c.checker?.kind === 'reference' ? { reference: c.checker.reference } : {}),
      ...(c.checker ? { multiplicity: c.checker.multiplicity } : {}),
    }))
    .sort((a, b) => a.order - b.order);
}

/** A stored row as the consultation and the JSON exports show it. */
export function rowView(row: SelectedRow, entry: DataEntry, locale: string, defaultLanguage: string): RowView {
  const display = {
    __display_default: rowDisplay(entry, row.values, row.natural_key, defaultLanguage, defaultLanguage),
  } as Record<`__display_${string}`, string>;
  display[`__display_${locale}`] = rowDisplay(entry, row.values, row.natural_key, locale, defaultLanguage);
  return {
    id: row.id,
    naturalKey: row.natural_key,
    hierarchicalKey: row.hierarchical_key,
    ...answerValues(entry, row.values),
    ...display,
  } as RowView;
}

export async function readReference(
  ctx: ServerContext,
  reference: EntryContext,
  query: RowQuery,
  acceptLocale: string,
  filter: RowFilter = { kind: 'all' },
): Promise<ReferencePage> {
  const { application, model, entry } = reference;
  const locale = query.outPut?.locale ?? acceptLocale;
  const { rows, totalRows } = await readPage(ctx, application.id, entry, query, filter);
  return {
    referenceType: entry.name,
    title: localized(entry.i18n.title, locale, model.defaultLanguage, entry.name),
    columns: describeColumns(entry, locale, model.defaultLanguage),
    referenceValues: rows.map((row) => rowView(row, entry, locale, model.defaultLanguage)),
    totalRows,
  };
}

/**
 * Every row of a reference as NDJSON lines, for the browser to keep (offline consultation and validation),
 * read by natural key a page at a time.
 */
export async function* referenceRowLines(
  ctx: ServerContext,
  reference: EntryContext,
  filter: RowFilter = { kind: 'all' },
): AsyncGenerator<string> {
  let after: string | undefined;
  for (;;) {
    let page = ctx.db
      .selectFrom('data_rows')
      .select(['id', 'natural_key', 'hierarchical_key', 'values'])
      .where('application_id', '=', reference.application.id)
      .where('data_name', '=', reference.entry.name)
      .orderBy('natural_key')
      .limit(EXPORT_PAGE);
    // A reader restricted to part of a scoped reference keeps only the rows they may read, as everywhere else.
    if (filter.kind !== 'all') page = page.where(rowFilterSql(reference.entry, filter) as RawBuilder<SqlBool>);
    if (after !== undefined) page = page.where('natural_key', '>', after);
    const rows = await page.execute();
    if (rows.length > 0) {
      yield (
        rows
          .map((r) =>
            JSON.stringify({
              id: r.id,
              naturalKey: r.natural_key,
              hierarchicalKey: r.hierarchical_key,
              values: r.values,
            }),
          )
          .join('\n') + '\n'
      );
    }
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].natural_key;
  }
}

/** How many rows of an entry a caller reads ({@link referenceRowLines} gives them): the stored count, or their own rows. */
export async function readableRowCount(
  ctx: ServerContext,
  reference: EntryContext,
  filter: RowFilter,
): Promise<number> {
  if (filter.kind === 'all') return storedCount(ctx.db, reference.application.id, reference.entry.name);
  const result = await sql<{ count: number }>`
    select count(*)::int as count from data_rows
    where application_id = ${reference.application.id} and data_name = ${reference.entry.name} and ${rowFilterSql(reference.entry, filter)}`.execute(
    ctx.db,
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Deletes rows by natural key in one transaction, unless other rows point to them: then nothing is deleted and
 * the refusal lists the rows that refer to them among the entries the caller reads whole (`readsWhole`): the keys
 * of rows they may not read are not theirs to learn.
 */
export async function deleteReferenceRows(
  ctx: ServerContext,
  reference: EntryContext,
  naturalKeys: string[],
  readsWhole: (dataName: string) => boolean,
) {
  const { application, entry } = reference;
  return whileWriting(application.id, entry.name, () =>
    ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        // Alone among the entry's writers, and after the writes pointing to it (other instances' too), whose rows
        // the pointing check below then sees; those coming later find the rows gone (pointedRows.ts).
        await sql`select pg_advisory_xact_lock(${entryLockKey(application.id, entry.name)})`.execute(trx);
        const targets = await trx
          .selectFrom('data_rows')
          .select(['id', 'hierarchical_key'])
          .where('application_id', '=', application.id)
          .where('data_name', '=', entry.name)
          .where(sql<boolean>`natural_key = any(${naturalKeys}::text[])`)
          .execute();
        if (targets.length === 0) throw new Refusal('NO_SUCH_ROWS', { naturalKeys });
        const keys = targets.map((t) => t.hierarchical_key);
        const ids = targets.map((t) => t.id);
        // Rows deleted together may point to each other (a place and the places within it).
        const referring = await rowsPointingTo(trx, application.id, keys, ids);
        if (referring.length > 0)
          throw new Refusal('REFERENCED_ROWS', {
            referring: listedReadable(referring, readsWhole),
            referringMore: referring.more,
          });
        await trx
          .deleteFrom('data_rows')
          .where(sql<boolean>`id = any(${ids}::uuid[])`)
          .execute();
        await refreshCount(trx, application.id, entry.name);
        return ids;
      }),
    ),
  );
}
