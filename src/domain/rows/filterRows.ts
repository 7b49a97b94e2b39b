import type { Checker, DataEntry } from '../configuration/model';
import { readInterval } from './intervals';
import { DEFAULT_LIMIT, MAX_LIMIT, type RowQuery } from './rowQuery';

/** A stored row as kept on the device. */
export interface KeptRow {
  id: string;
  naturalKey: string;
  hierarchicalKey: string;
  values: Record<string, unknown>;
}

/**
 * The same query the server answers with SQL, answered from rows kept on the device (offline consultation).
 * `hierarchicalKeysOf` maps natural keys of a referenced entry to their hierarchical keys.
 */
export function filterRows(
  entry: DataEntry,
  rows: readonly KeptRow[],
  query: RowQuery,
  hierarchicalKeysOf: (reference: string, naturalKeys: string[]) => Set<string>,
): { rows: KeptRow[]; totalRows: number } {
  const checkers = new Map<string, Checker | null>();
  for (const component of entry.components) {
    checkers.set(component.key, component.checker);
    if (component.kind === 'pattern') {
      for (const q of component.qualifiers) checkers.set(q.storedKey, q.checker);
      for (const a of component.adjacents) checkers.set(a.storedKey, a.checker);
    }
  }
  const tests: Array<(row: KeptRow) => boolean> = [];
  if (query.rowIds?.length) {
    const ids = new Set(query.rowIds);
    tests.push((row) => ids.has(row.id));
  }
  if (query.naturalKeys?.length) {
    const keys = new Set(query.naturalKeys);
    tests.push((row) => keys.has(row.naturalKey));
  }
  for (const filter of query.componentFilters ?? []) {
    const checker = checkers.get(filter.componentKey) ?? null;
    const key = filter.componentKey;
    if (filter.filters?.length) {
      const wanted =
        checker?.kind === 'reference' ? hierarchicalKeysOf(checker.reference, filter.filters) : new Set(filter.filters);
      tests.push((row) => {
        const value = row.values[key];
        return Array.isArray(value)
          ? value.some((v) => wanted.has(String(v)))
          : value !== null && value !== undefined && wanted.has(String(value));
      });
    }
    const interval = readInterval(checker, filter.intervalValues?.from, filter.intervalValues?.to);
    if (interval.state !== 'usable') continue;
    const from = interval.from!;
    const to = interval.to!;
    if (checker?.kind === 'integer' || checker?.kind === 'float') {
      const low = Number(from);
      const high = Number(to);
      tests.push(
        (row) =>
          typeof row.values[key] === 'number' &&
          (row.values[key] as number) >= low &&
          (row.values[key] as number) <= high,
      );
    } else {
      const text = (value: unknown) =>
        checker?.kind === 'date' && typeof value === 'string' ? value.slice(5, 24) : String(value ?? '');
      // A date's upper end is compared on as many characters as it has ("2020-07-01" takes the whole day), as the server does.
      const upper = (value: unknown) => (checker?.kind === 'date' ? text(value).slice(0, to.length) : text(value));
      tests.push(
        (row) =>
          row.values[key] !== undefined &&
          row.values[key] !== null &&
          text(row.values[key]) >= from &&
          upper(row.values[key]) <= to,
      );
    }
  }
  const kept = rows.filter((row) => tests.every((test) => test(row)));
  const orders = query.componentOrderBy ?? [];
  kept.sort((a, b) => {
    for (const order of orders) {
      const difference = compareValues(a.values[order.componentKey], b.values[order.componentKey]);
      if (difference !== 0) return order.order === 'DESC' ? -difference : difference;
    }
    return a.naturalKey < b.naturalKey ? -1 : a.naturalKey > b.naturalKey ? 1 : 0;
  });
  const offset = query.offset ?? 0;
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  return { rows: kept.slice(offset, offset + limit), totalRows: kept.length };
}

/** Missing values last; numbers by value; texts by code point, as the database orders them. */
function compareValues(a: unknown, b: unknown): number {
  const missing = (v: unknown) => v === undefined || v === null;
  if (missing(a) || missing(b)) return missing(a) === missing(b) ? 0 : missing(a) ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
