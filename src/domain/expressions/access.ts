/**
 * Reading a property (`a.b`) or an element (`a[i]`) with Groovy's rules, over the values of groovyValues.ts only:
 * plain objects answer their own properties, lists spread a property over their elements, strings know `empty`.
 * Nothing here ever reads a JavaScript property that the data did not put there.
 */
import { isCapitalized } from './characters';
import { ExpressionError } from './errors';
import { LtreeValue, MapEntry, isGroovyMap, isStringLike, mapGet, textOf, typeName } from './groovyValues';
import { isGroovyNumber, numberKind, toBigInt } from './numbers';

export function nullDereference(what: string): ExpressionError {
  return new ExpressionError('nullDereference', `Cannot ${what} on null object.`, { action: what });
}

function noSuchProperty(target: unknown, name: string): ExpressionError {
  return new ExpressionError('noSuchProperty', `No property '${name}' on ${typeName(target)}.`, {
    property: name,
    type: typeName(target),
  });
}

export function getProperty(target: unknown, name: string): unknown {
  if (target === null || target === undefined) throw nullDereference(`get property '${name}'`);
  if (isGroovyMap(target)) return mapGet(target, name);
  if (Array.isArray(target)) {
    if (name === 'empty') return target.length === 0;
    return target.map((item) => (item === null || item === undefined ? null : getProperty(item, name)));
  }
  if (isStringLike(target) && name === 'empty') return textOf(target).length === 0;
  if (target instanceof MapEntry) {
    if (name === 'key') return target.key;
    if (name === 'value') return target.value;
  }
  if (target instanceof LtreeValue && name === 'sql') return target.sql;
  throw noSuchProperty(target, name);
}

/**
 * The property a Java getter call stands for: `getNaturalKey()` → `naturalKey`, `isActive()` → `active`,
 * `getURL()` → `URL` (Java beans keep the case when the first two letters are capitals).
 */
export function getterProperty(method: string): string | null {
  const prefix = method.startsWith('get') ? 3 : method.startsWith('is') ? 2 : 0;
  const rest = method.slice(prefix);
  if (prefix === 0 || rest === '' || (rest[0] !== '_' && !isCapitalized(rest))) return null;
  if (rest.length > 1 && isCapitalized(rest) && isCapitalized(rest.slice(1))) return rest;
  return rest[0].toLowerCase() + rest.slice(1);
}

/** A list or string position as an int (Groovy accepts any integral number there). */
export function toIndex(index: unknown, what: string): number {
  if (
    isGroovyNumber(index) &&
    (numberKind(index) === 'Integer' || numberKind(index) === 'Long' || numberKind(index) === 'BigInteger')
  ) {
    return Number(toBigInt(index));
  }
  throw new ExpressionError('badArguments', `${what} needs an integer index, not ${typeName(index)}.`, {
    index: typeName(index),
  });
}

export function outOfBounds(index: number, size: number): ExpressionError {
  return new ExpressionError('indexOutOfBounds', `Index ${index} out of range for length ${size}.`, { index, size });
}

/** `target[index]` (Groovy getAt): negative positions count from the end; past the end of a list is null. */
export function getAt(target: unknown, index: unknown): unknown {
  if (target === null || target === undefined) throw nullDereference("use '[]'");
  if (isGroovyMap(target)) return mapGet(target, index);
  if (Array.isArray(target)) {
    if (isStringLike(index)) return getProperty(target, textOf(index));
    const position = toIndex(index, 'A list');
    const resolved = position < 0 ? target.length + position : position;
    if (resolved < 0 && position < 0) throw outOfBounds(position, target.length);
    return resolved < target.length ? (target[resolved] ?? null) : null;
  }
  if (isStringLike(target)) {
    const text = textOf(target);
    const position = toIndex(index, 'A string');
    const resolved = position < 0 ? text.length + position : position;
    if (resolved < 0 || resolved >= text.length) throw outOfBounds(position, text.length);
    return text[resolved];
  }
  throw new ExpressionError('noSuchMethod', `${typeName(target)} cannot be indexed with '[]'.`, {
    method: 'getAt',
    type: typeName(target),
  });
}
