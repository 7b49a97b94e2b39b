import { compileJavaDatePattern } from '../configuration/javaDatePattern';
import type { Checker } from '../configuration/model';

/**
 * Stored values as text, the way a CSV file gives them back: dates in their own pattern, references as the
 * natural key of the row they point to, lists joined by commas. Used by exports and by the consultation tables.
 */
const DATE_PREFIX = 'date:';

/** The ISO local date-time inside a stored date (`date:<ISO>:<pattern>`), or undefined for other values. */
export function isoOfStoredDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(DATE_PREFIX)) return undefined;
  return value.slice(DATE_PREFIX.length, DATE_PREFIX.length + 19);
}

const patterns = new Map<string, ReturnType<typeof compileJavaDatePattern>>();

function formatStoredDate(value: string): string {
  const iso = isoOfStoredDate(value)!;
  const source = value.slice(DATE_PREFIX.length + 20);
  let compiled = patterns.get(source);
  if (!compiled) patterns.set(source, (compiled = compileJavaDatePattern(source)));
  if (!compiled.ok) return iso;
  const [date, time] = iso.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = (time ?? '00:00:00').split(':').map(Number);
  return compiled.pattern.format({ year, month, day, hour, minute, second, nano: 0 });
}

/** The natural key of the row a hierarchical key names: its last label, after `<dataName>K`. */
export function naturalKeyOfHierarchicalKey(hierarchicalKey: string): string {
  const last = hierarchicalKey.slice(hierarchicalKey.lastIndexOf('.') + 1);
  const marker = last.indexOf('K');
  return marker >= 0 ? last.slice(marker + 1) : last;
}

/**
 * The natural key of a row of `reference` from its hierarchical key (`blocKb1.blocKb1_1` → `b1_1`); a value that is
 * already a natural key (`NULL_KEY__oir`, as row answers give them) is given back as it is.
 */
export function naturalKeyInReference(key: string, reference: string): string {
  const last = key.slice(key.lastIndexOf('.') + 1);
  const prefix = `${reference}K`;
  return last.startsWith(prefix) ? last.slice(prefix.length) : last;
}

export function cellText(value: unknown, checker: Checker | null): string {
  if (value === null || value === undefined) return '';
  // A list of objects (a pattern component's matched columns) stays one JSON document: joined, it would not be JSON.
  if (Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null)) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => cellText(v, checker)).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string') {
    if (value.startsWith(DATE_PREFIX)) return formatStoredDate(value);
    if (checker?.kind === 'reference') return naturalKeyInReference(value, checker.reference);
    return value;
  }
  return String(value);
}
