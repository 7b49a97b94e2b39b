/**
 * Groovy operators on values: `+` concatenates as soon as the left side is a string (and `1 + 'a'` is '1a'),
 * `'ab' * 2` repeats, `list - x` removes every x, `/` on integers gives a decimal, comparisons put null first,
 * `in` asks the container (a list by equals, a map by the truth of the value).
 */
import { nullDereference } from './access';
import { groovyCompare, groovyEquals, javaEquals } from './equality';
import { ExpressionError } from './errors';
import {
  GroovyClosure,
  type MapKey,
  asMapKey,
  isGroovyMap,
  isStringLike,
  mapEntries,
  mapGet,
  textOf,
  truthy,
  typeName,
} from './groovyValues';
import { type ArithmeticOperator, arithmetic, isGroovyNumber, negate, numberKind, power, toBigInt } from './numbers';
import type { Runtime } from './runtime';

function unsupported(method: string, left: unknown, right?: unknown): ExpressionError {
  const types = right === undefined ? typeName(left) : `${typeName(left)} and ${typeName(right)}`;
  return new ExpressionError('noSuchMethod', `Operator ${method} is not defined for ${types}.`, {
    method,
    type: typeName(left),
    argument: right === undefined ? undefined : typeName(right),
  });
}

export function concat(rt: Runtime, left: string, right: string): string {
  rt.checkString(left.length + right.length);
  return left + right;
}

/** Entries of a map (JavaScript Map or plain object) copied into a new Map. */
function copyMap(source: unknown): Map<MapKey, unknown> {
  const map = new Map<MapKey, unknown>();
  if (isGroovyMap(source)) for (const entry of mapEntries(source)) map.set(asMapKey(entry.key) ?? null, entry.value);
  return map;
}

export function plus(rt: Runtime, left: unknown, right: unknown): unknown {
  if (isStringLike(left)) return concat(rt, textOf(left), rt.text(right));
  if (isGroovyNumber(left)) {
    if (isGroovyNumber(right)) return arithmetic('+', left, right);
    if (isStringLike(right)) return concat(rt, rt.text(left), textOf(right));
    if (right === null || right === undefined) throw nullDereference('add null to a number');
  }
  if (Array.isArray(left)) {
    const added = Array.isArray(right) ? right : [right];
    rt.checkSize(left.length + added.length);
    return [...left, ...added];
  }
  if (isGroovyMap(left) && isGroovyMap(right)) {
    const merged = copyMap(left);
    for (const entry of mapEntries(right)) merged.set(asMapKey(entry.key) ?? null, entry.value);
    rt.checkSize(merged.size);
    return merged;
  }
  if (left === null || left === undefined) {
    if (isStringLike(right)) return concat(rt, 'null', textOf(right));
    throw nullDereference("use '+'");
  }
  throw unsupported('+', left, right);
}

export function minus(rt: Runtime, left: unknown, right: unknown): unknown {
  if (isGroovyNumber(left) && isGroovyNumber(right)) return arithmetic('-', left, right);
  if (isStringLike(left)) {
    const text = textOf(left);
    const removed = rt.text(right);
    const at = text.indexOf(removed);
    return at < 0 ? text : text.slice(0, at) + text.slice(at + removed.length);
  }
  if (Array.isArray(left)) {
    const removed = Array.isArray(right) ? right : [right];
    return left.filter((item) => !removed.some((r) => groovyEquals(item, r)));
  }
  if (left === null || left === undefined) throw nullDereference("use '-'");
  throw unsupported('-', left, right);
}

function repetitions(count: unknown, left: unknown): number {
  if (!isGroovyNumber(count) || !['Integer', 'Long', 'BigInteger'].includes(numberKind(count)))
    throw unsupported('*', left, count);
  const times = Number(toBigInt(count));
  if (times < 0) throw new ExpressionError('badArguments', `Cannot repeat ${times} times.`, { count: times });
  return times;
}

export function multiply(rt: Runtime, left: unknown, right: unknown): unknown {
  if (isGroovyNumber(left) && isGroovyNumber(right)) return arithmetic('*', left, right);
  if (isStringLike(left)) {
    const text = textOf(left);
    const times = repetitions(right, left);
    rt.checkString(text.length * times);
    return text.repeat(times);
  }
  if (Array.isArray(left)) {
    const times = repetitions(right, left);
    rt.checkSize(left.length * times);
    const result: unknown[] = [];
    for (let k = 0; k < times; k++) result.push(...left);
    return result;
  }
  if (left === null || left === undefined) throw nullDereference("use '*'");
  throw unsupported('*', left, right);
}

/** `/`, `%` and `**`, which only numbers have. */
export function numericOnly(op: '/' | '%' | '**', left: unknown, right: unknown): unknown {
  if (isGroovyNumber(left) && isGroovyNumber(right)) {
    return op === '**' ? power(left, right) : arithmetic(op as ArithmeticOperator, left, right);
  }
  if (left === null || left === undefined) throw nullDereference(`use '${op}'`);
  throw unsupported(op, left, right);
}

export function unaryMinus(value: unknown): unknown {
  if (isGroovyNumber(value)) return negate(value);
  if (value === null || value === undefined) throw nullDereference("use unary '-'");
  throw unsupported('unary -', value);
}

export function unaryPlus(value: unknown): unknown {
  if (isGroovyNumber(value)) return value;
  if (value === null || value === undefined) throw nullDereference("use unary '+'");
  throw unsupported('unary +', value);
}

export function compare(op: '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  const order = groovyCompare(left, right);
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** `value in container` (the container's isCase). */
export function isCase(rt: Runtime, container: unknown, value: unknown): boolean {
  if (container === null || container === undefined) return value === null || value === undefined;
  if (Array.isArray(container)) {
    rt.tick(container.length);
    return container.some((item) => javaEquals(item, value));
  }
  if (isGroovyMap(container)) return truthy(mapGet(container, value));
  if (isStringLike(container)) return value !== null && value !== undefined && textOf(container) === rt.text(value);
  if (container instanceof GroovyClosure) return truthy(rt.call(container, [value]));
  if (isGroovyNumber(container) && isGroovyNumber(value)) return groovyEquals(container, value);
  return javaEquals(container, value);
}
