/**
 * Groovy's three notions of sameness: `==` (null-safe, numbers by value across kinds, strings and GStrings by
 * text, lists and maps element by element), Java `equals` (same class required: 'a'.equals("$x") is false, 1 is not
 * 1L), and ordering for `<`, `<=>`, sort, min and max (null first, then values of comparable kinds).
 */
import { ExpressionError } from './errors';
import {
  GString,
  LocalDateValue,
  LtreeValue,
  MapEntry,
  isGroovyMap,
  isStringLike,
  mapEntries,
  mapGet,
  mapHas,
  mapSize,
  textOf,
  typeName,
} from './groovyValues';
import { compareNumbers, isGroovyNumber, javaNumberEquals } from './numbers';

/** Groovy `==` (DefaultTypeTransformation.compareEqual). */
export function groovyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (isStringLike(a) && isStringLike(b)) return textOf(a) === textOf(b);
  if (isGroovyNumber(a) && isGroovyNumber(b)) return compareNumbers(a, b) === 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => groovyEquals(item, b[i]));
  }
  if (isGroovyMap(a) && isGroovyMap(b)) {
    if (mapSize(a) !== mapSize(b)) return false;
    return mapEntries(a).every((entry) => mapHas(b, entry.key) && groovyEquals(entry.value, mapGet(b, entry.key)));
  }
  return javaEquals(a, b);
}

/** Java `a.equals(b)` as Groovy dispatches it (lists and maps use Groovy's element equality). */
export function javaEquals(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined) return b === null || b === undefined;
  if (b === null || b === undefined) return false;
  if (typeof a === 'string') return typeof b === 'string' && a === b;
  if (a instanceof GString) return b instanceof GString && a.text === b.text;
  if (isGroovyNumber(a)) return isGroovyNumber(b) && javaNumberEquals(a, b);
  if (Array.isArray(a) || isGroovyMap(a)) return groovyEquals(a, b);
  if (a instanceof MapEntry)
    return b instanceof MapEntry && groovyEquals(a.key, b.key) && groovyEquals(a.value, b.value);
  if (a instanceof LtreeValue) return b instanceof LtreeValue && a.sql === b.sql;
  if (a instanceof LocalDateValue) return b instanceof LocalDateValue && compareDates(a, b) === 0;
  return a === b;
}

/** Chronological order of two days (LocalDate.compareTo gives a difference; its sign is what Groovy uses). */
export function compareDates(a: LocalDateValue, b: LocalDateValue): number {
  return Math.sign(a.year - b.year || a.month - b.month || a.day - b.day);
}

function cannotCompare(a: unknown, b: unknown): ExpressionError {
  return new ExpressionError('cannotCompare', `Cannot compare ${typeName(a)} with ${typeName(b)}.`, {
    left: typeName(a),
    right: typeName(b),
  });
}

/** Ordering as Groovy's `<=>`: null is below everything; strings by UTF-16 code units, like String.compareTo. */
export function groovyCompare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (isGroovyNumber(a) && isGroovyNumber(b)) return compareNumbers(a, b);
  if (isStringLike(a) && isStringLike(b)) {
    const x = textOf(a);
    const y = textOf(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof LocalDateValue && b instanceof LocalDateValue) return compareDates(a, b);
  throw cannotCompare(a, b);
}
