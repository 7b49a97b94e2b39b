/**
 * The values an expression handles, and the Groovy rules that depend only on a value: its type name, its truth
 * and its text. Lists are JavaScript arrays and are never mutated; maps built by an expression are JavaScript
 * `Map`s; plain objects handed in by the caller (datum, reference rows, …) are read as maps through their own
 * properties only, so no prototype is ever reached.
 */
import type { JavaDatePattern } from '../configuration/javaDatePattern';
import { toIsoLocalDateTime } from '../configuration/localDateTime';
import { ExpressionError } from './errors';
import type { ClosureNode, Frame } from './ir';
import {
  BigDecimal,
  FloatingValue,
  LongValue,
  fromHostNumber,
  isGroovyNumber,
  isZero,
  numberKind,
  numberToString,
} from './numbers';

/** A double-quoted string with interpolations. Its text is fixed when it is built; it is not a java.lang.String. */
export class GString {
  constructor(readonly text: string) {}
}

/** An entry of a map, as closures iterating a map receive it (`it.key`, `it.value`). */
export class MapEntry {
  constructor(
    readonly key: unknown,
    readonly value: unknown,
  ) {}
}

/** What `Ltree.fromUnescapedString(text)` returns in the original: `.sql` holds the escaped label. */
export class LtreeValue {
  constructor(readonly sql: string) {}
}

/** `Collectors.joining(…)` / `Collectors.toList()`, for `Arrays.stream(x).collect(…)`. */
export class CollectorValue {
  constructor(
    readonly kind: 'joining' | 'toList',
    readonly separator = '',
    readonly prefix = '',
    readonly suffix = '',
  ) {}
}

/** A `java.time.LocalDate`: a day of the proleptic Gregorian calendar, without time or zone. */
export class LocalDateValue {
  constructor(
    readonly year: number,
    /** 1–12 */
    readonly month: number,
    /** 1–31 */
    readonly day: number,
  ) {}
}

/** What `DateTimeFormatter.ofPattern(text)` returns: the pattern, read once. */
export class DateFormatterValue {
  constructor(readonly pattern: JavaDatePattern) {}
}

/** `new GroovyException(code, params)`: what `throw` turns into the line error named by `code`. */
export class GroovyExceptionValue {
  constructor(
    readonly code: string,
    readonly params: GroovyMap | null,
  ) {}
}

/** What a `catch` variable holds: the evaluation error it stopped, as the Java class the catch named. */
export class CaughtException {
  constructor(
    readonly error: ExpressionError,
    readonly javaType: string,
  ) {}
}

/** A closure: its compiled body and the variables it captured. */
export class GroovyClosure {
  constructor(
    readonly definition: ClosureNode,
    readonly frame: Frame,
  ) {}
}

/** Keys a map built by an expression may have. */
export type MapKey = string | number | boolean | bigint | null;
export type GroovyMap = Map<MapKey, unknown> | Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function isGroovyMap(value: unknown): value is GroovyMap {
  return value instanceof Map || isRecord(value);
}

export function isStringLike(value: unknown): value is string | GString {
  return typeof value === 'string' || value instanceof GString;
}

export function textOf(value: string | GString): string {
  return typeof value === 'string' ? value : value.text;
}

/** The Groovy class name of a value, for messages. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'boolean') return 'Boolean';
  if (isGroovyNumber(value)) return numberKind(value);
  if (value instanceof GString) return 'GString';
  if (Array.isArray(value)) return 'List';
  if (isGroovyMap(value)) return 'Map';
  if (value instanceof MapEntry) return 'Map.Entry';
  if (value instanceof LtreeValue) return 'Ltree';
  if (value instanceof CollectorValue) return 'Collector';
  if (value instanceof LocalDateValue) return 'LocalDate';
  if (value instanceof DateFormatterValue) return 'DateTimeFormatter';
  if (value instanceof GroovyExceptionValue) return 'GroovyException';
  if (value instanceof CaughtException) return value.javaType.slice(value.javaType.lastIndexOf('.') + 1);
  if (value instanceof GroovyClosure) return 'Closure';
  return 'Object';
}

export function mapSize(map: GroovyMap): number {
  return map instanceof Map ? map.size : Object.keys(map).length;
}

/** Normalises a value read from the caller's data: undefined is null, numbers get their Groovy kind. */
export function fromHost(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'number') return fromHostNumber(value);
  if (typeof value === 'bigint') return new LongValue(value, 'Long');
  return value;
}

/**
 * The key under which a value is stored in a map built by an expression, or undefined for values that cannot be
 * keys here (decimals, floating numbers, lists, maps): Java compares those by equals/hashCode, which a JavaScript
 * Map cannot reproduce.
 */
export function asMapKey(value: unknown): MapKey | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof GString) return value.text;
  if (value instanceof LongValue) return value.value;
  return undefined;
}

/** `map.get(key)`: own properties only for plain objects, so `__proto__` or `constructor` read as missing keys. */
export function mapGet(map: GroovyMap, key: unknown): unknown {
  if (map instanceof Map) {
    const mapKey = asMapKey(key);
    return mapKey !== undefined && map.has(mapKey) ? map.get(mapKey) : null;
  }
  const name = typeof key === 'string' ? key : key instanceof GString ? key.text : null;
  if (name === null || !Object.prototype.hasOwnProperty.call(map, name)) return null;
  return fromHost(map[name]);
}

export function mapHas(map: GroovyMap, key: unknown): boolean {
  if (map instanceof Map) {
    const mapKey = asMapKey(key);
    return mapKey !== undefined && map.has(mapKey);
  }
  const name = typeof key === 'string' ? key : key instanceof GString ? key.text : null;
  return name !== null && Object.prototype.hasOwnProperty.call(map, name);
}

export function mapEntries(map: GroovyMap): MapEntry[] {
  if (map instanceof Map)
    return [...map].map(
      ([key, value]) => new MapEntry(typeof key === 'bigint' ? new LongValue(key, 'Long') : key, value),
    );
  return Object.keys(map).map((key) => new MapEntry(key, fromHost(map[key])));
}

/** Groovy truth: null, false, empty strings, collections and maps, and zero are false. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof GString) return value.text.length > 0;
  if (isGroovyNumber(value)) return value instanceof FloatingValue ? value.value !== 0 : !isZero(value);
  if (Array.isArray(value)) return value.length > 0;
  if (isGroovyMap(value)) return mapSize(value) > 0;
  return true;
}

/** Joins the texts of parts, refusing (valueTooLarge) before the result would pass `maxLength`. */
function joinTexts(
  parts: readonly string[],
  open: string,
  separator: string,
  close: string,
  maxLength: number,
): string {
  let length = open.length + close.length;
  for (const part of parts) {
    length += part.length + separator.length;
    if (length > maxLength + separator.length) {
      throw new ExpressionError('valueTooLarge', `A string would exceed ${maxLength} characters.`, {
        limit: maxLength,
      });
    }
  }
  return open + parts.join(separator) + close;
}

/**
 * Groovy's text of a value (`toString()`, string concatenation, interpolation): lists as `[a, b]`, maps as
 * `[k:v]`, null as `null`, numbers as Java prints them. `maxLength` bounds the text of lists and maps, which
 * could otherwise grow far beyond any limit before it is checked.
 */
export function groovyToString(value: unknown, maxLength = Infinity): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (isGroovyNumber(value)) return numberToString(value);
  if (value instanceof GString) return value.text;
  if (Array.isArray(value))
    return joinTexts(
      value.map((item) => groovyToString(item, maxLength)),
      '[',
      ', ',
      ']',
      maxLength,
    );
  if (isGroovyMap(value)) {
    const entries = mapEntries(value);
    if (entries.length === 0) return '[:]';
    const parts = entries.map((e) =>
      joinTexts([groovyToString(e.key, maxLength), groovyToString(e.value, maxLength)], '', ':', '', maxLength),
    );
    return joinTexts(parts, '[', ', ', ']', maxLength);
  }
  if (value instanceof MapEntry)
    return joinTexts(
      [groovyToString(value.key, maxLength), groovyToString(value.value, maxLength)],
      '',
      '=',
      '',
      maxLength,
    );
  if (value instanceof LtreeValue) return value.sql;
  if (value instanceof LocalDateValue) return isoLocalDate(value);
  if (value instanceof DateFormatterValue) return value.pattern.source;
  if (value instanceof GroovyExceptionValue) return `GroovyException: ${value.code}`;
  if (value instanceof CaughtException) return `${typeName(value)}: ${value.error.message}`;
  return typeName(value);
}

/** Java's `LocalDate.toString()`: `2024-03-01`; years past 9999 get a sign, as in Java. */
export function isoLocalDate(date: LocalDateValue): string {
  const midnight = { year: date.year, month: date.month, day: date.day, hour: 0, minute: 0, second: 0, nano: 0 };
  return toIsoLocalDateTime(midnight).slice(0, -'T00:00:00'.length);
}

/** A result as handed back to the caller: GStrings become strings, inside lists and maps too. */
export function toHost(value: unknown): unknown {
  if (value instanceof GString) return value.text;
  if (Array.isArray(value)) return value.some(needsHostConversion) ? value.map(toHost) : value;
  if (value instanceof Map) {
    let changed = false;
    const converted = new Map<MapKey, unknown>();
    for (const [key, item] of value) {
      const hostItem = toHost(item);
      if (hostItem !== item) changed = true;
      converted.set(key, hostItem);
    }
    return changed ? converted : value;
  }
  return value;
}

function needsHostConversion(value: unknown): boolean {
  return value instanceof GString || Array.isArray(value) || value instanceof Map;
}

export { BigDecimal, FloatingValue, LongValue };
