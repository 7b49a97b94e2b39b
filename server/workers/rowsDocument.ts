import { randomUUID } from 'node:crypto';
import type { CsvRow } from '../../src/domain/csv/index.ts';

/** Rows are written in batches of this size: one statement each, never one round trip per row. */
export const WRITE_BATCH = 2000;

/**
 * A batch of rows as one JSON document, read by `json_to_recordset` (one parameter, parsed once by the database):
 * `id` (new row id), `nk` natural key, `hk` hierarchical key, `v` values, `r` the keys the row points to, `ln` line
 * number, and for data with a time scope `ps`/`pe`, the period the row covers (absent keys read as null).
 */
export function rowsDocument(rows: readonly CsvRow[]): string {
  return JSON.stringify(
    rows.map((r) => {
      const row: Record<string, unknown> = {
        id: randomUUID(),
        nk: r.naturalKey,
        hk: r.hierarchicalKey,
        v: r.values,
        r: [...new Set(r.links.map((l) => l.hierarchicalKey))],
        ln: r.lineNumber,
      };
      if (r.period) {
        row.ps = r.period.from;
        row.pe = r.period.to;
      }
      return row;
    }),
  );
}
