/** Shapes and argument checks shared by the tables of built-in (GDK) methods. */
import { nullDereference } from './access';
import { ExpressionError } from './errors';
import { GroovyClosure, MapEntry, isStringLike, textOf, truthy, typeName } from './groovyValues';
import { isGroovyNumber, numberKind, toBigInt } from './numbers';
import type { Runtime } from './runtime';

export interface MethodSpec<Self> {
  readonly min: number;
  readonly max: number;
  run(rt: Runtime, self: Self, args: readonly unknown[]): unknown;
}

export type MethodTable<Self> = Readonly<Record<string, MethodSpec<Self>>>;

/** The entry of a table for a name, never something inherited from Object.prototype (`constructor`, `valueOf`…). */
export function ownEntry<Value>(table: Readonly<Record<string, Value>>, name: string): Value | undefined {
  return Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
}

export function method<Self>(min: number, max: number, run: MethodSpec<Self>['run']): MethodSpec<Self> {
  return { min, max, run };
}

export function badArgument(name: string, position: number, expected: string, actual: unknown): ExpressionError {
  return new ExpressionError(
    'badArguments',
    `Argument ${position + 1} of ${name}() must be ${expected}, not ${typeName(actual)}.`,
    {
      method: name,
      position: position + 1,
      expected,
      actual: typeName(actual),
    },
  );
}

/** A text argument (String or GString); null is a NullPointerException in Java. */
export function stringArg(args: readonly unknown[], k: number, name: string): string {
  const value = args[k];
  if (isStringLike(value)) return textOf(value);
  if (value === null || value === undefined) throw nullDereference(`pass null to ${name}()`);
  throw badArgument(name, k, 'a string', value);
}

export function intArg(args: readonly unknown[], k: number, name: string): number {
  const value = args[k];
  if (isGroovyNumber(value) && ['Integer', 'Long', 'BigInteger'].includes(numberKind(value)))
    return Number(toBigInt(value));
  throw badArgument(name, k, 'an integer', value);
}

export function closureArg(args: readonly unknown[], k: number, name: string): GroovyClosure {
  const value = args[k];
  if (value instanceof GroovyClosure) return value;
  throw badArgument(name, k, 'a closure', value);
}

/** How many parameters a closure takes (an implicit `it` counts as one). */
export function closureArity(closure: GroovyClosure): number {
  return closure.definition.implicitIt ? 1 : closure.definition.params.length;
}

/** Calls a closure on a map entry: `{ k, v -> }` gets key and value, `{ e -> }` the entry. */
export function callOnEntry(rt: Runtime, closure: GroovyClosure, entry: MapEntry): unknown {
  return closureArity(closure) === 2 ? rt.call(closure, [entry.key, entry.value]) : rt.call(closure, [entry]);
}

export function holds(rt: Runtime, closure: GroovyClosure, item: unknown): boolean {
  return truthy(rt.call(closure, [item]));
}
