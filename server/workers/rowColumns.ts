import { timeOrderedId } from './timeOrderedId.ts';
import type { CsvRow } from '../../src/domain/csv/index.ts';

/** Rows are written in batches of this size: one statement each, never one round trip per row. */
export const WRITE_BATCH = 2000;

/**
 * A batch of rows as one PostgreSQL array literal per column, read by `unnest` (rowColumnsSource in dataRows.ts):
 * new row ids, natural keys, hierarchical keys, values (JSON texts, cast to jsonb), the keys each row points to (an
 * array literal each, cast to text[]), line numbers, and for data with a time scope the period each row covers
 * (NULL elsewhere). Array literals are parsed by the database at COPY's cost; the JSON document read by
 * json_to_recordset they replace cost about twice as much of the database's time per row (docs/benchmarks.md).
 */
export interface RowColumns {
  ids: string;
  naturalKeys: string;
  hierarchicalKeys: string;
  values: string;
  refs: string;
  lineNumbers: string;
  periodStarts: string;
  periodEnds: string;
}

/** One row's fields as stored. */
export interface StoredFields {
  id: string;
  naturalKey: string;
  hierarchicalKey: string;
  values: unknown;
  refs: readonly string[];
  lineNumber: number;
  period?: { from: string; to: string };
}

const QUOTED = /["\\]/g;
/** A text as a quoted element of an array literal: backslashes and double quotes escaped, nothing else. */
const element = (text: string) =>
  `"${text.includes('"') || text.includes('\\') ? text.replace(QUOTED, '\\$&') : text}"`;
const literal = (elements: readonly string[]) => `{${elements.join(',')}}`;

/**
 * A JSON value's text as a quoted element. JSON's string escaping is the array literal's: the outer JSON.stringify
 * escapes exactly the backslashes and double quotes of the inner text, which holds no raw control character.
 */
const jsonElement = (value: unknown) => JSON.stringify(JSON.stringify(value));

export function columnsOf(rows: readonly StoredFields[]): RowColumns {
  return {
    ids: literal(rows.map((row) => row.id)),
    naturalKeys: literal(rows.map((row) => element(row.naturalKey))),
    hierarchicalKeys: literal(rows.map((row) => element(row.hierarchicalKey))),
    values: literal(rows.map((row) => jsonElement(row.values))),
    refs: literal(rows.map((row) => element(literal(row.refs.map(element))))),
    lineNumbers: literal(rows.map((row) => String(row.lineNumber))),
    periodStarts: literal(rows.map((row) => (row.period ? element(row.period.from) : 'NULL'))),
    periodEnds: literal(rows.map((row) => (row.period ? element(row.period.to) : 'NULL'))),
  };
}

/** A checked row's fields as stored, under `id`. */
export function storedFieldsOf(row: CsvRow, id: string): StoredFields {
  return {
    id,
    naturalKey: row.naturalKey,
    hierarchicalKey: row.hierarchicalKey,
    values: row.values,
    refs: [...new Set(row.links.map((link) => link.hierarchicalKey))],
    lineNumber: row.lineNumber,
    period: row.period,
  };
}

/** Checked rows as the columns of a write, each given a new id. */
export function rowColumns(rows: readonly CsvRow[]): RowColumns {
  return columnsOf(rows.map((row) => storedFieldsOf(row, timeOrderedId())));
}

/** How much of the server's memory a batch holds, in characters (what waits to be written is bounded by it). */
export function charactersOf(columns: RowColumns): number {
  let characters = 0;
  for (const text of Object.values(columns) as string[]) characters += text.length;
  return characters;
}
