import { localized } from '../../src/domain/applications/summary.ts';
import { EntryCsvWriter, hasSingleShape, shapeOf, storedShapeKey } from '../../src/domain/bundle/entryCsv.ts';
import { readableCell, uniqueTitles } from '../../src/domain/rows/readableCells.ts';
import type { WrittenRow } from '../../src/domain/rows/rowTexts.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { spreadsheetSafe } from '../../src/domain/rows/spreadsheetSafe.ts';
import type { ServerContext } from '../context.ts';
import { exportRowTexts } from './dataRows.ts';
import { dynamicColumns } from './dynamicColumns.ts';
import { matchingRowPages, type SelectedRow } from './rowQueries.ts';
import { describeColumns, rowView, type EntryContext } from './references.ts';

/** How the readable CSV export writes its cells. */
export interface CsvOptions {
  locale: string;
  /** Cells a spreadsheet would run as a formula are prefixed with an apostrophe (downloads made from a page). */
  spreadsheetSafe?: boolean;
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The headers of the entry's own dynamic columns: only the references it reads that way are read, not the model's. */
const entryDynamicColumns = (ctx: ServerContext, { application, model, entry }: EntryContext) =>
  dynamicColumns(ctx.db, application.id, { ...model, data: [entry] });

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
  const dynamics = await entryDynamicColumns(ctx, data);
  return (async function* () {
    yield `${titles.map(cell).join(separator)}\n`;
    for await (const rows of pages) {
      const written = writtenRows(rows);
      const rowTexts = await rowTextsOf(written);
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
 * The entry as the CSV files an upload takes, to load again: written by the backup's writer (`EntryCsvWriter`:
 * import headers and the lines above them, dynamic and pattern components in their own columns, references spelled
 * as their files name them), so that loading them stores the same rows. Rows of different shapes (loaded from files
 * of different constants, dynamic or pattern columns) cannot share a file: one file per shape, in the order their
 * first rows come. Finding the shapes costs one more read of the matching rows, for entries that may have several.
 * Same query, rights and paging as the readable export; every value exact (never spreadsheet-safe).
 */
export async function entryUploadCsvs(
  ctx: ServerContext,
  data: EntryContext,
  query: RowQuery,
  filter: RowFilter = { kind: 'all' },
): Promise<Array<AsyncIterable<string>>> {
  const { application, model, entry } = data;
  const pages = () => matchingRowPages(ctx.db, application.id, entry, query, filter);
  // The first read checks the query before the answer starts.
  let first: AsyncIterable<SelectedRow[]> | undefined = await pages();
  const rowTextsOf = await exportRowTexts(ctx.db, application.id, model, entry);
  const dynamics = await entryDynamicColumns(ctx, data);
  let shapes: Array<string | undefined> = [undefined];
  if (!hasSingleShape(entry)) {
    const seen = new Set<string>();
    for await (const rows of first) for (const row of rows) seen.add(storedShapeKey(entry, row.values));
    first = undefined;
    if (seen.size > 1) shapes = [...seen];
  }
  const file = (shape: string | undefined, rowPages: AsyncIterable<SelectedRow[]> | undefined) =>
    (async function* () {
      let writer: EntryCsvWriter | undefined;
      for await (const rows of rowPages ?? (await pages())) {
        const kept = writtenRows(rows).filter(
          (row) => shape === undefined || storedShapeKey(entry, row.values) === shape,
        );
        if (kept.length === 0) continue;
        const texts = await rowTextsOf(kept);
        if (!writer) {
          writer = new EntryCsvWriter(entry, shapeOf(entry, kept[0].values, texts), { dynamicHeader: dynamics.header });
          yield writer.head();
        }
        yield kept.map((row) => writer!.line(row, texts)).join('');
      }
      // No matching row: the header alone.
      if (!writer)
        yield new EntryCsvWriter(entry, shapeOf(entry, {}, await rowTextsOf([])), {
          dynamicHeader: dynamics.header,
        }).head();
    })();
  return shapes.map((shape, index) => file(shape, index === 0 ? first : undefined));
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
