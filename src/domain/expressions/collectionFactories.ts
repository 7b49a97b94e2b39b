/**
 * Java's immutable collection factories, `Set.of`, `List.of` and `Map.of`, which configurations use for lists of
 * allowed codes and for exception params. Lists are JavaScript arrays here, sets too (no expression can tell the
 * difference through the methods it may call); Java's refusals are kept: null elements and duplicates fail.
 */
import { nullDereference } from './access';
import { javaEquals } from './equality';
import { ExpressionError } from './errors';
import { type MapKey, asMapKey, groovyToString, typeName } from './groovyValues';
import type { Runtime } from './runtime';
import type { StaticClass } from './staticClass';

/** Java's overloads stop at ten pairs for Map.of; the varargs forms of Set.of and List.of take any number. */
const MAX_ELEMENTS = 1_000;

function noNulls(args: readonly unknown[], name: string): void {
  if (args.some((value) => value === null || value === undefined)) throw nullDereference(`pass null to ${name}()`);
}

function duplicate(name: string, value: unknown): ExpressionError {
  const text = groovyToString(value).slice(0, 200);
  return new ExpressionError('badArguments', `${name}() was given '${text}' twice.`, { method: name, value: text });
}

function setOf(rt: Runtime, args: readonly unknown[]): unknown[] {
  noNulls(args, 'Set.of');
  rt.tick(args.length * args.length);
  args.forEach((value, k) => {
    if (args.slice(0, k).some((earlier) => javaEquals(earlier, value))) throw duplicate('Set.of', value);
  });
  return [...args];
}

function mapOf(rt: Runtime, args: readonly unknown[]): Map<MapKey, unknown> {
  if (args.length % 2 !== 0)
    throw new ExpressionError('badArguments', 'Map.of() takes keys and values in pairs.', { method: 'Map.of' });
  noNulls(args, 'Map.of');
  rt.tick(args.length);
  const map = new Map<MapKey, unknown>();
  for (let k = 0; k < args.length; k += 2) {
    const key = asMapKey(args[k]);
    if (key === undefined)
      throw new ExpressionError('unsupportedMapKey', `A ${typeName(args[k])} cannot be used as a map key here.`, {
        type: typeName(args[k]),
      });
    if (map.has(key)) throw duplicate('Map.of', args[k]);
    map.set(key, args[k + 1]);
  }
  return map;
}

export const COLLECTION_FACTORIES: readonly StaticClass[] = [
  {
    names: ['Set', 'java.util.Set'],
    methods: { of: { min: 0, max: MAX_ELEMENTS, invoke: setOf } },
    constants: {},
  },
  {
    names: ['List', 'java.util.List'],
    methods: {
      of: {
        min: 0,
        max: MAX_ELEMENTS,
        invoke: (_rt, args) => {
          noNulls(args, 'List.of');
          return [...args];
        },
      },
    },
    constants: {},
  },
  {
    names: ['Map', 'java.util.Map'],
    methods: { of: { min: 0, max: 20, invoke: mapOf } },
    constants: {},
  },
];
