import type { Checker, DataEntry } from '../configuration/model';
import { APPLIED_INTERVALS, comparedValue, isNumberChecker, readInterval } from './intervals';
import { DEFAULT_LIMIT, MAX_LIMIT, withOriginalPrecedence, type RowQuery } from './rowQuery';

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
  sent: RowQuery,
  hierarchicalKeysOf: (reference: string, naturalKeys: string[]) => Set<string>,
): { rows: KeptRow[]; totalRows: number } {
  const query = withOriginalPrecedence(sent);
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
    tests.push((row) => keys.has(row.naturalKey) || keys.has(row.hierarchicalKey));
  }
  for (const filter of query.componentFilters ?? []) {
    const checker = checkers.get(filter.componentKey) ?? null;
    const key = filter.componentKey;
    if (filter.filters?.length) tests.push(valuesTest(checker, key, filter.filters, hierarchicalKeysOf));
    const interval = readInterval(checker, filter.intervalValues?.from, filter.intervalValues?.to);
    if (APPLIED_INTERVALS.has(interval.state)) tests.push(intervalTest(checker, key, interval.from, interval.to));
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

/** A stored value as a filter compares it: a date's ISO text, anything else as it is. */
const storedText = (checker: Checker | null, value: unknown) =>
  checker?.kind === 'date' && typeof value === 'string' ? value.slice(5, 24) : String(value ?? '');

/** The values of a cell: those of a MANY column, or the one. */
const cellValues = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];

/**
 * Whether a value lies between the ends (one may be open), as the server compares them (filterConditions.ts); in a
 * list, whether one of its values does.
 */
function intervalTest(checker: Checker | null, key: string, from?: string, to?: string) {
  const within = valueWithin(checker, from, to);
  return (row: KeptRow) => {
    const value = row.values[key];
    return Array.isArray(value) && checker?.multiplicity === 'MANY' ? value.some(within) : within(value);
  };
}

function valueWithin(checker: Checker | null, from?: string, to?: string): (value: unknown) => boolean {
  if (isNumberChecker(checker)) {
    const [low, high] = [from === undefined ? -Infinity : Number(from), to === undefined ? Infinity : Number(to)];
    return (value) => typeof value === 'number' && value >= low && value <= high;
  }
  // A date's upper end is compared on as many characters as it has ("2020-07-01" takes the whole day).
  const upper = (text: string) => (checker?.kind === 'date' && to !== undefined ? text.slice(0, to.length) : text);
  return (value) => {
    if (value === undefined || value === null || typeof value === 'object') return false;
    const text = storedText(checker, value);
    return (from === undefined || text >= from) && (to === undefined || upper(text) <= to);
  };
}

/** Whether a hierarchical key is one of `keys` or lies under one of them. */
function withinOneOf(key: string, keys: ReadonlySet<string>): boolean {
  for (let end = key.indexOf('.'); end >= 0; end = key.indexOf('.', end + 1))
    if (keys.has(key.slice(0, end))) return true;
  return keys.has(key);
}

/** Whether a cell holds one of the values: references by key, numbers as numbers, dates by the unit each names. */
function valuesTest(
  checker: Checker | null,
  key: string,
  values: string[],
  hierarchicalKeysOf: (reference: string, naturalKeys: string[]) => Set<string>,
) {
  if (checker?.kind === 'reference') {
    // Named by natural key or by hierarchical key; a row within a named one is taken too (the server's sub-trees).
    const wanted = new Set([...hierarchicalKeysOf(checker.reference, values), ...values]);
    return (row: KeptRow) => cellValues(row.values[key]).some((v) => withinOneOf(String(v), wanted));
  }
  const compared = values.map((value) => comparedValue(checker, value)).filter((v): v is string => v !== null);
  if (isNumberChecker(checker)) {
    const wanted = new Set(compared.map(Number));
    return (row: KeptRow) => cellValues(row.values[key]).some((v) => typeof v === 'number' && wanted.has(v));
  }
  if (checker?.kind === 'date')
    return (row: KeptRow) =>
      cellValues(row.values[key]).some((v) => compared.some((bound) => storedText(checker, v).startsWith(bound)));
  const wanted = new Set(compared);
  return (row: KeptRow) => cellValues(row.values[key]).some((v) => wanted.has(String(v)));
}
