import { Zip, ZipDeflate } from 'fflate';
import { sql } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { localized } from '../../src/domain/applications/summary.ts';
import { cellText } from '../../src/domain/rows/cellText.ts';
import { rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { ApiError } from '../http/apiError.ts';
import type { StreamedUpload } from '../http/readUpload.ts';
import { findApplication } from './applications.ts';
import { withLateTransaction } from '../db/lateTransaction.ts';
import { countAfterWrite, refreshCount, rowTextsFor, upsertRows } from './dataRows.ts';
import { ingestCsv } from './ingest.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import { readPage, selectRows, storedKeys, type RowCursor, type SelectedRow } from './rowQueries.ts';

/** Reference files up to this size are accepted (a million rows of ten columns is about 60 MB). */
export const MAX_CSV_BYTES = 200 * 1024 * 1024;

/** An application and one of its data entries (a reference or a data type). */
export interface EntryContext {
  application: ApplicationRow;
  model: ApplicationModel;
  entry: DataEntry;
}

/** The application and one of its references, or the refusal that says which is missing. */
export async function referenceOf(ctx: ServerContext, applicationName: string, refType: string): Promise<EntryContext> {
  const application = await findApplication(ctx, applicationName);
  const model = application.model;
  const entry = model.data.find((d) => d.name === refType && d.kind === 'reference');
  if (!entry) throw new ApiError(404, 'NO_SUCH_REFERENCE', { name: application.name, reference: refType });
  return { application, model, entry };
}

/** The application and one of its data types. */
export async function dataTypeOf(ctx: ServerContext, applicationName: string, dataType: string): Promise<EntryContext> {
  const application = await findApplication(ctx, applicationName);
  const model = application.model;
  const entry = model.data.find((d) => d.name === dataType && d.kind === 'dataType');
  if (!entry) throw new ApiError(404, 'NO_SUCH_DATA_TYPE', { name: application.name, dataType });
  return { application, model, entry };
}


/**
 * Reads a CSV stream, validates it with the shared CSV engine and stores it in one transaction, begun at its first
 * write: every row or none. Rows are inserted or updated by natural key; stored rows the file does not mention stay.
 */
export async function uploadReference(
  ctx: ServerContext,
  reference: EntryContext,
  file: StreamedUpload,
): Promise<{ referenceType: string; lineCount: number; totalRows: number }> {
  const { application, model, entry } = reference;
  return withLateTransaction(ctx.db, async (late) => {
    let written = 0;
    const lineCount = await ingestCsv(
      { db: ctx.db, applicationId: application.id, model, entry, fileName: file.fileName },
      file.stream,
      async (rows) => {
        written += await upsertRows(await late.begin(), application.id, entry.name, rows);
      },
      () => file.complete(),
    );
    const totalRows = await countAfterWrite(late.current(), application.id, entry.name, written);
    return { referenceType: entry.name, lineCount, totalRows };
  });
}

/** A row as the consultation shows it; `__display_<locale>` holds its display in the asked language. */
export type ReferenceValue = {
  id: string;
  naturalKey: string;
  hierarchicalKey: string;
  values: Record<string, unknown>;
  __display_default: string;
} & Record<`__display_${string}`, string>;

export interface ColumnDescription {
  key: string;
  title: string;
  description: string;
  hidden: boolean;
  order: number;
  checker: string | null;
  /** For reference components: the entry pointed to. */
  reference?: string;
  multiplicity?: 'ONE' | 'MANY';
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

function valueOf(row: SelectedRow, entry: DataEntry, locale: string, defaultLanguage: string): ReferenceValue {
  const display = { __display_default: rowDisplay(entry, row.values, row.natural_key, defaultLanguage, defaultLanguage) } as Record<`__display_${string}`, string>;
  display[`__display_${locale}`] = rowDisplay(entry, row.values, row.natural_key, locale, defaultLanguage);
  return { id: row.id, naturalKey: row.natural_key, hierarchicalKey: row.hierarchical_key, values: row.values, ...display } as ReferenceValue;
}

export async function readReference(ctx: ServerContext, reference: EntryContext, query: RowQuery, acceptLocale: string, filter: RowFilter = { kind: 'all' }) {
  const { application, model, entry } = reference;
  const locale = query.outPut?.locale ?? acceptLocale;
  const { rows, totalRows } = await readPage(ctx, application.id, entry, query, filter);
  return {
    referenceType: entry.name,
    title: localized(entry.i18n.title, locale, model.defaultLanguage, entry.name),
    columns: describeColumns(entry, locale, model.defaultLanguage),
    referenceValues: rows.map((row) => valueOf(row, entry, locale, model.defaultLanguage)),
    totalRows,
  };
}

const EXPORT_PAGE = 5000;

/**
 * Every matching row, a page at a time, so an export never holds the whole table in memory; pages follow each
 * other by natural key (by offset when the query asks for another order).
 */
async function* allRows(ctx: ServerContext, applicationId: string, entry: DataEntry, query: RowQuery, filter: RowFilter) {
  let after: RowCursor | undefined;
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const rows = await selectRows(ctx.db, applicationId, entry, { ...query, offset, limit: EXPORT_PAGE }, filter, after);
    yield* rows;
    if (rows.length < EXPORT_PAGE) return;
    const last = rows[rows.length - 1];
    after = { naturalKey: last.natural_key, id: last.id };
  }
}

/**
 * Every row of a reference as NDJSON lines, for the browser to keep (offline consultation and validation),
 * read by natural key a page at a time.
 */
export async function* referenceRowLines(ctx: ServerContext, reference: EntryContext): AsyncGenerator<string> {
  let after: string | undefined;
  for (;;) {
    let page = ctx.db
      .selectFrom('data_rows')
      .select(['id', 'natural_key', 'hierarchical_key', 'values'])
      .where('application_id', '=', reference.application.id)
      .where('data_name', '=', reference.entry.name)
      .orderBy('natural_key')
      .limit(EXPORT_PAGE);
    if (after !== undefined) page = page.where('natural_key', '>', after);
    const rows = await page.execute();
    if (rows.length > 0) {
      yield rows.map((r) => JSON.stringify({ id: r.id, naturalKey: r.natural_key, hierarchicalKey: r.hierarchical_key, values: r.values })).join('\n') + '\n';
    }
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].natural_key;
  }
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The entry as CSV: UTF-8, the entry's own separator, every field quoted, headers translated, values written the
 * way a file gives them (so an export can be loaded again).
 */
export async function* referenceCsv(ctx: ServerContext, reference: EntryContext, query: RowQuery, locale: string, filter: RowFilter = { kind: 'all' }): AsyncGenerator<string> {
  const { application, model, entry } = reference;
  const separator = entry.csv.separator;
  const columns = [...storedKeys(entry)].filter(([key]) => entry.components.some((c) => c.key === key && c.kind !== 'computed'));
  const titles = columns.map(([key]) => {
    const component = entry.components.find((c) => c.key === key)!;
    return localized(component.exportHeader.title, locale, model.defaultLanguage, key);
  });
  yield `${titles.map(quote).join(separator)}\n`;
  const rowTexts = await rowTextsFor(ctx.db, application.id, entry);
  for await (const row of allRows(ctx, application.id, entry, query, filter)) {
    const texts = rowTexts.row({ naturalKey: row.natural_key, values: row.values });
    yield `${columns.map(([key, checker]) => quote(texts[key] ?? cellText(row.values[key], checker))).join(separator)}\n`;
  }
}

/** References a data entry's columns point to: their CSV files go with it in a zip export. */
export function referencedEntries(data: EntryContext): EntryContext[] {
  const names = new Set(data.entry.components.flatMap((c) => (c.checker?.kind === 'reference' ? [c.checker.reference] : [])));
  return data.model.data.filter((d) => names.has(d.name) && d.name !== data.entry.name).map((entry) => ({ ...data, entry }));
}

/** Files inside a zip (export.zip, additionalFile.zip), compressed as they are produced: texts or bytes. */
export function zipOf(files: Array<{ name: string; content: AsyncIterable<string | Uint8Array> }>): AsyncIterable<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let finished = false;
  const zip = new Zip((error, data, final) => {
    if (error) throw error;
    chunks.push(data);
    if (final) finished = true;
  });
  const encoder = new TextEncoder();
  return (async function* () {
    for (const file of files) {
      const entry = new ZipDeflate(file.name, { level: 6 });
      zip.add(entry);
      for await (const text of file.content) {
        entry.push(typeof text === 'string' ? encoder.encode(text) : text);
        yield* chunks.splice(0);
      }
      entry.push(new Uint8Array(), true);
      yield* chunks.splice(0);
    }
    zip.end();
    yield* chunks.splice(0);
    if (!finished) throw new Error('zip not finished');
  })();
}

/**
 * Deletes rows by natural key in one transaction, unless other rows point to them: then nothing is deleted and
 * the refusal lists the rows that refer to them.
 */
export async function deleteReferenceRows(ctx: ServerContext, reference: EntryContext, naturalKeys: string[]) {
  const { application, entry } = reference;
  return ctx.db.transaction().execute(async (trx) => {
    const targets = await trx
      .selectFrom('data_rows')
      .select(['id', 'hierarchical_key'])
      .where('application_id', '=', application.id)
      .where('data_name', '=', entry.name)
      .where('natural_key', 'in', naturalKeys.length ? naturalKeys : [''])
      .execute();
    if (targets.length === 0) throw new ApiError(404, 'NO_SUCH_ROWS', { naturalKeys });
    const keys = targets.map((t) => t.hierarchical_key);
    const ids = targets.map((t) => t.id);
    const referring = await sql<{ data_name: string; natural_key: string }>`
      select data_name, natural_key from data_rows
      where application_id = ${application.id} and refs && ${keys}::text[] and not (id = any(${ids}::uuid[]))
      order by data_name, natural_key limit 50`.execute(trx);
    if (referring.rows.length > 0) {
      throw new ApiError(409, 'REFERENCED_ROWS', {
        referring: referring.rows.map((r) => ({ dataName: r.data_name, naturalKey: r.natural_key })),
      });
    }
    await trx.deleteFrom('data_rows').where('id', 'in', ids).execute();
    await refreshCount(trx, application.id, entry.name);
    return ids;
  });
}
