import { createHash } from 'node:crypto';
import { localized } from '../../src/domain/applications/summary.ts';
import { EntryCsvWriter, hasSingleShape, shapeOf, type RowShape } from '../../src/domain/bundle/entryCsv.ts';
import type { DynamicComponent } from '../../src/domain/configuration/model.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { readableCell, uniqueTitles } from '../../src/domain/rows/readableCells.ts';
import type { RowTexts, WrittenRow } from '../../src/domain/rows/rowTexts.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { spreadsheetSafe } from '../../src/domain/rows/spreadsheetSafe.ts';
import type { ServerContext } from '../context.ts';
import { exportRowTexts } from './dataRows.ts';
import { dynamicColumns, namedRows } from './dynamicColumns.ts';
import { matchingDistinct, matchingRowPages, type SelectedRow } from './rowQueries.ts';
import { ofShape, shapesByKey, storedShape, type ShapeDigests } from './storedShapes.ts';
import { describeColumns, rowView, type EntryContext } from './references.ts';

/** How the readable CSV export writes its cells. */
export interface CsvOptions {
  locale: string;
  /**
   * Cells a spreadsheet would run as a formula are prefixed with an apostrophe, and the file starts with a byte order
   * mark (downloads made from a page).
   */
  spreadsheetSafe?: boolean;
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The headers of the entry's own dynamic columns that `keysOf` names: only those rows of the references it reads
 * that way are read (not the model's references, not whole references).
 */
const entryDynamicColumns = (
  ctx: ServerContext,
  { application, model, entry }: EntryContext,
  keysOf: (component: DynamicComponent) => Iterable<string>,
) => dynamicColumns(ctx.db, application.id, { ...model, data: [entry] }, namedRows(entry, keysOf));

/** The keys of a dynamic component's stored value: the reference rows it has a column for. */
const dynamicKeys = (value: unknown) => (value && typeof value === 'object' ? Object.keys(value) : []);

const writtenRows = (rows: readonly SelectedRow[]): WrittenRow[] =>
  rows.map((row) => ({ naturalKey: row.natural_key, values: row.values }));

/**
 * The entry as CSV to read: UTF-8, the entry's own separator, every field quoted, one column per component under its
 * export title in the reader's language (made unique: `uniqueTitles`), dynamic and pattern components as JSON
 * (`readableCell`). Every matching row, in constant memory: one text per page of rows read. To load again, see
 * `entryUploadCsvs`.
 */
export async function entryCsv(
  ctx: ServerContext,
  data: EntryContext,
  query: RowQuery,
  options: CsvOptions,
  filter: RowFilter = { kind: 'all' },
): Promise<AsyncIterable<string>> {
  const { application, model, entry } = data;
  const separator = entry.csv.separator;
  const components = entry.components.filter((component) => component.kind !== 'computed');
  const titles = uniqueTitles(
    components.map((component) => ({
      title: localized(component.exportHeader.title, options.locale, model.defaultLanguage, component.key),
      importHeader: entry.csv.columns.find((binding) => binding.component === component.key)?.header,
      key: component.key,
    })),
  );
  const cell = options.spreadsheetSafe ? (text: string) => quote(spreadsheetSafe(text)) : quote;
  const pages = await matchingRowPages(ctx.db, application.id, entry, query, filter);
  const rowTextsOf = await exportRowTexts(ctx.db, application.id, model, entry);
  return (async function* () {
    // A spreadsheet reads a CSV without a byte order mark in the system's old encoding (accents garbled in
    // Excel); scripts reading the exact download are spared it.
    yield `${options.spreadsheetSafe ? '\uFEFF' : ''}${titles.map(cell).join(separator)}\n`;
    for await (const rows of pages) {
      const written = writtenRows(rows);
      const rowTexts = await rowTextsOf(written);
      const dynamics = await entryDynamicColumns(ctx, data, (component) =>
        written.flatMap((row) => dynamicKeys(row.values[component.key])),
      );
      let text = '';
      for (const row of written) {
        const texts = rowTexts.row(row);
        text += `${components.map((c) => cell(texts[c.key] ?? readableCell(c, row.values[c.key], dynamics.header))).join(separator)}\n`;
      }
      yield text;
    }
  })();
}

/**
 * Above this many stored shapes among the matching rows, the export to load again is refused: each shape is one
 * file and one more scan of the matching rows (docs/decisions.md, "Two CSV exports").
 */
export const MAX_UPLOAD_SHAPES = 100;

/**
 * The shapes of the matching rows the reader may read, as the backup groups them (`shapesByKey`): listed by the
 * database in one pass, at most `MAX_UPLOAD_SHAPES`. Constants are spelled as their files name them.
 */
async function matchingShapes(
  ctx: ServerContext,
  { application, entry }: EntryContext,
  query: RowQuery,
  filter: RowFilter,
  rowTextsOf: (rows: readonly WrittenRow[]) => Promise<RowTexts>,
): Promise<ShapeDigests[]> {
  const stored = await matchingDistinct(
    ctx.db,
    application.id,
    entry,
    query,
    filter,
    storedShape(entry),
    MAX_UPLOAD_SHAPES + 1,
  );
  // Counted before merging: a listing cut at the bound may have left out stored shapes of any merged one.
  if (stored.length > MAX_UPLOAD_SHAPES) throw new Refusal('UPLOAD_FORM_TOO_MANY_SHAPES', { max: MAX_UPLOAD_SHAPES });
  const digested = stored.map((shape) => ({ shape, digest: createHash('md5').update(shape).digest('hex') }));
  // The stored shapes as rows: their constants are the references the texts must spell.
  const texts = await rowTextsOf(digested.map(({ shape }) => ({ naturalKey: '', values: JSON.parse(shape) })));
  return shapesByKey(entry, digested, texts);
}

/**
 * The entry as the CSV files an upload takes, to load again: written by the backup's writer (`EntryCsvWriter`:
 * import headers and the lines above them, dynamic and pattern components in their own columns, references spelled
 * as their files name them), so that loading them stores the same rows. Rows of different shapes (loaded from files
 * of different constants, dynamic or pattern columns) cannot share a file: one file per shape, grouped as the backup
 * groups them, in the order of their keys; each file reads its own rows only. Same query, rights and paging as the
 * readable export; every value exact (never spreadsheet-safe).
 */
export async function entryUploadCsvs(
  ctx: ServerContext,
  data: EntryContext,
  query: RowQuery,
  filter: RowFilter = { kind: 'all' },
): Promise<Array<AsyncIterable<string>>> {
  const { application, model, entry } = data;
  const rowTextsOf = await exportRowTexts(ctx.db, application.id, model, entry);
  // The query is checked (by the first page or the listing of shapes) before the answer starts.
  const single = hasSingleShape(entry);
  const first = single ? await matchingRowPages(ctx.db, application.id, entry, query, filter) : undefined;
  // Digests undefined: every matching row (an entry of one shape); empty: none (no matching row).
  const shapes: Array<{ shape: RowShape; digests?: Set<string> }> = single
    ? [{ shape: shapeOf(entry, {}, await rowTextsOf([])) }]
    : await matchingShapes(ctx, data, query, filter, rowTextsOf);
  if (shapes.length === 0) shapes.push({ shape: shapeOf(entry, {}, await rowTextsOf([])), digests: new Set() });
  const dynamics = await entryDynamicColumns(ctx, data, (component) =>
    shapes.flatMap(({ shape }) => shape.dynamics[component.key] ?? []),
  );
  const file = ({ shape, digests }: (typeof shapes)[number]) =>
    (async function* () {
      const writer = new EntryCsvWriter(entry, shape, { dynamicHeader: dynamics.header });
      yield writer.head();
      // No matching row: the header alone.
      if (digests?.size === 0) return;
      const pages =
        first ??
        (await matchingRowPages(ctx.db, application.id, entry, query, filter, digests && ofShape(entry, digests)));
      for await (const rows of pages) {
        const written = writtenRows(rows);
        const texts = await rowTextsOf(written);
        yield written.map((row) => writer.line(row, texts)).join('');
      }
    })();
  return shapes.map(file);
}

/**
 * Every matching row as one JSON document, the shape of a page of the consultation (`columns`, the rows with their
 * displays, `totalRows` counted as they were written), streamed a page of rows at a time.
 */
export async function entryJson(
  ctx: ServerContext,
  data: EntryContext,
  query: RowQuery,
  locale: string,
  filter: RowFilter = { kind: 'all' },
): Promise<AsyncIterable<string>> {
  const { application, model, entry } = data;
  const rowsField = entry.kind === 'reference' ? 'referenceValues' : 'rows';
  const head = {
    [entry.kind === 'reference' ? 'referenceType' : 'dataType']: entry.name,
    title: localized(entry.i18n.title, locale, model.defaultLanguage, entry.name),
    columns: describeColumns(entry, locale, model.defaultLanguage),
  };
  const pages = await matchingRowPages(ctx.db, application.id, entry, query, filter);
  return (async function* () {
    yield `${JSON.stringify(head).slice(0, -1)},${JSON.stringify(rowsField)}:[`;
    let count = 0;
    for await (const rows of pages) {
      const texts = rows.map((row) => JSON.stringify(rowView(row, entry, locale, model.defaultLanguage)));
      yield `${count === 0 ? '' : ','}${texts.join(',')}`;
      count += rows.length;
    }
    yield `],"totalRows":${count}}`;
  })();
}

/** References a data entry's columns point to: their CSV files go with it in a zip export. */
export function referencedEntries(data: EntryContext): EntryContext[] {
  const names = new Set(
    data.entry.components.flatMap((c) => (c.checker?.kind === 'reference' ? [c.checker.reference] : [])),
  );
  return data.model.data
    .filter((d) => names.has(d.name) && d.name !== data.entry.name)
    .map((entry) => ({ ...data, entry }));
}
