import { localized } from '../../src/domain/applications/summary.ts';
import { cellText } from '../../src/domain/rows/cellText.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { spreadsheetSafe } from '../../src/domain/rows/spreadsheetSafe.ts';
import type { ServerContext } from '../context.ts';
import { exportRowTexts } from './dataRows.ts';
import { matchingRowPages, storedKeys } from './rowQueries.ts';
import { describeColumns, rowView, type EntryContext } from './references.ts';

/** How a CSV export writes its cells. */
export interface CsvOptions {
  locale: string;
  /** Cells a spreadsheet would run as a formula are prefixed with an apostrophe (downloads made from a page). */
  spreadsheetSafe?: boolean;
}

const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * The entry as CSV: UTF-8, the entry's own separator, every field quoted, headers translated, values written the
 * way a file gives them (so an export can be loaded again). Every matching row, in constant memory: one text per
 * page of rows read.
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
  const columns = [...storedKeys(entry)].filter(([key]) =>
    entry.components.some((c) => c.key === key && c.kind !== 'computed'),
  );
  const titles = columns.map(([key]) => {
    const component = entry.components.find((c) => c.key === key)!;
    return localized(component.exportHeader.title, options.locale, model.defaultLanguage, key);
  });
  const cell = options.spreadsheetSafe ? (text: string) => quote(spreadsheetSafe(text)) : quote;
  const pages = await matchingRowPages(ctx.db, application.id, entry, query, filter);
  const rowTextsOf = await exportRowTexts(ctx.db, application.id, model, entry);
  return (async function* () {
    yield `${titles.map(cell).join(separator)}\n`;
    for await (const rows of pages) {
      const written = rows.map((row) => ({ naturalKey: row.natural_key, values: row.values }));
      const rowTexts = await rowTextsOf(written);
      let text = '';
      for (const [index, row] of rows.entries()) {
        const texts = rowTexts.row(written[index]);
        text += `${columns.map(([key, checker]) => cell(texts[key] ?? cellText(row.values[key], checker))).join(separator)}\n`;
      }
      yield text;
    }
  })();
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
