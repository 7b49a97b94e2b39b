/**
 * Built-in methods of lists and maps (Groovy's DefaultGroovyMethods). Nothing here changes its receiver: `sort`
 * and `unique`, which sort or deduplicate a Groovy list in place, return a new list instead, so an expression can
 * never alter the data it was given.
 */
import { getAt, outOfBounds, toIndex } from './access';
import { groovyCompare, groovyEquals, javaEquals } from './equality';
import { ExpressionError } from './errors';
import {
  CollectorValue,
  GroovyClosure,
  type GroovyMap,
  type MapKey,
  MapEntry,
  asMapKey,
  isGroovyMap,
  mapEntries,
  mapGet,
  mapHas,
  mapSize,
  truthy,
  typeName,
} from './groovyValues';
import {
  type MethodTable,
  badArgument,
  callOnEntry,
  closureArg,
  closureArity,
  holds,
  method,
  stringArg,
} from './methodSupport';
import { isGroovyNumber } from './numbers';
import { minus, multiply, plus } from './operators';
import type { Runtime } from './runtime';

function emptyCollection(name: string): ExpressionError {
  return new ExpressionError('emptyCollection', `Cannot call ${name}() on an empty list.`, { method: name });
}

function mapKeyOf(value: unknown): MapKey {
  const key = asMapKey(value);
  if (key === undefined) {
    throw new ExpressionError('unsupportedMapKey', `A ${typeName(value)} cannot be used as a map key here.`, {
      type: typeName(value),
    });
  }
  return key;
}

/** Groovy's `sum`: the elements added with `+`, so numbers add up and strings concatenate. */
function sum(rt: Runtime, items: readonly unknown[], initial: { value: unknown } | null): unknown {
  let total = initial ? initial.value : items[0];
  for (let k = initial ? 0 : 1; k < items.length; k++) {
    rt.tick();
    total = plus(rt, total, items[k]);
  }
  return items.length === 0 && !initial ? null : total;
}

/** A comparator from a closure: `{ a, b -> … }` compares, `{ it.x }` compares by key. */
function comparatorOf(rt: Runtime, closure: GroovyClosure | null): (a: unknown, b: unknown) => number {
  if (!closure) {
    return (a, b) => {
      rt.tick();
      return groovyCompare(a, b);
    };
  }
  if (closureArity(closure) === 2) {
    return (a, b) => {
      const result = rt.call(closure, [a, b]);
      if (!isGroovyNumber(result)) throw badArgument('sort', 0, 'a closure returning a number', result);
      return groovyCompare(result, 0);
    };
  }
  return (a, b) => groovyCompare(rt.call(closure, [a]), rt.call(closure, [b]));
}

function extreme(
  rt: Runtime,
  items: readonly unknown[],
  args: readonly unknown[],
  name: string,
  sign: 1 | -1,
): unknown {
  const compare = comparatorOf(rt, args.length > 0 ? closureArg(args, 0, name) : null);
  let best: unknown = null;
  items.forEach((item, k) => {
    if (k === 0 || sign * compare(item, best) > 0) best = item;
  });
  return best;
}

/** Groovy `unique()`, without changing the list: strings and booleans by a set, other values by `==`. */
function unique(rt: Runtime, items: readonly unknown[]): unknown[] {
  const result: unknown[] = [];
  const seen = new Set<unknown>();
  for (const item of items) {
    rt.tick();
    if (typeof item === 'string' || typeof item === 'boolean' || item === null) {
      if (!seen.has(item)) {
        seen.add(item);
        result.push(item);
      }
      continue;
    }
    rt.tick(result.length);
    if (!result.some((other) => groovyEquals(item, other))) result.push(item);
  }
  return result;
}

function groupBy(rt: Runtime, items: readonly unknown[], closure: GroovyClosure): Map<MapKey, unknown> {
  const groups = new Map<MapKey, unknown[]>();
  for (const item of items) {
    const key = mapKeyOf(rt.call(closure, [item]));
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** `collectEntries`: each element (or the closure's result) is a `[key, value]` pair or a map. */
function collectEntries(
  rt: Runtime,
  items: readonly unknown[],
  closure: GroovyClosure | null,
  name: string,
): Map<MapKey, unknown> {
  const result = new Map<MapKey, unknown>();
  for (const item of items) {
    const produced = closure
      ? item instanceof MapEntry
        ? callOnEntry(rt, closure, item)
        : rt.call(closure, [item])
      : item;
    if (Array.isArray(produced) && produced.length === 2) result.set(mapKeyOf(produced[0]), produced[1]);
    else if (isGroovyMap(produced))
      for (const entry of mapEntries(produced)) result.set(mapKeyOf(entry.key), entry.value);
    else if (produced instanceof MapEntry) result.set(mapKeyOf(produced.key), produced.value);
    else throw badArgument(name, 0, 'a closure returning a [key, value] pair', produced);
    rt.checkSize(result.size);
  }
  return result;
}

/** `join`: the elements' texts with a separator, refused before it would pass the string limit. */
function joined(rt: Runtime, items: readonly unknown[], separator: string): string {
  rt.tick(items.length);
  let length = 0;
  const texts = items.map((item) => {
    const text = rt.text(item);
    length += text.length + separator.length;
    rt.checkString(length - separator.length);
    return text;
  });
  return texts.join(separator);
}

function collect(rt: Runtime, items: readonly unknown[], args: readonly unknown[]): unknown {
  if (args.length === 0) return [...items];
  const collector = args[0];
  if (collector instanceof CollectorValue) {
    if (collector.kind === 'toList') return [...items];
    const text = collector.prefix + joined(rt, items, collector.separator) + collector.suffix;
    rt.checkString(text.length);
    return text;
  }
  const closure = closureArg(args, 0, 'collect');
  return items.map((item) => rt.call(closure, [item]));
}

export const LIST_METHODS: MethodTable<readonly unknown[]> = {
  size: method(0, 0, (_rt, list) => list.length),
  isEmpty: method(0, 0, (_rt, list) => list.length === 0),
  contains: method(1, 1, (rt, list, args) => {
    rt.tick(list.length);
    return list.some((item) => javaEquals(item, args[0]));
  }),
  indexOf: method(1, 1, (rt, list, args) => {
    rt.tick(list.length);
    return list.findIndex((item) => javaEquals(item, args[0]));
  }),
  get: method(1, 1, (_rt, list, args) => {
    const index = toIndex(args[0], 'get()');
    if (index < 0 || index >= list.length) throw outOfBounds(index, list.length);
    return list[index];
  }),
  getAt: method(1, 1, (_rt, list, args) => getAt(list, args[0])),
  first: method(0, 0, (_rt, list) => {
    if (list.length === 0) throw emptyCollection('first');
    return list[0];
  }),
  last: method(0, 0, (_rt, list) => {
    if (list.length === 0) throw emptyCollection('last');
    return list[list.length - 1];
  }),
  find: method(0, 1, (rt, list, args) => {
    const closure = args.length > 0 ? closureArg(args, 0, 'find') : null;
    for (const item of list) if (closure ? holds(rt, closure, item) : truthy(item)) return item;
    return null;
  }),
  findAll: method(0, 1, (rt, list, args) => {
    const closure = args.length > 0 ? closureArg(args, 0, 'findAll') : null;
    return list.filter((item) => (closure ? holds(rt, closure, item) : truthy(item)));
  }),
  filter: method(1, 1, (rt, list, args) => {
    const closure = closureArg(args, 0, 'filter');
    return list.filter((item) => holds(rt, closure, item));
  }),
  collect: method(0, 1, (rt, list, args) => collect(rt, list, args)),
  map: method(1, 1, (rt, list, args) => {
    const closure = closureArg(args, 0, 'map');
    return list.map((item) => rt.call(closure, [item]));
  }),
  each: method(1, 1, (rt, list, args) => {
    const closure = closureArg(args, 0, 'each');
    for (const item of list) rt.call(closure, [item]);
    return list;
  }),
  eachWithIndex: method(1, 1, (rt, list, args) => {
    const closure = closureArg(args, 0, 'eachWithIndex');
    list.forEach((item, k) => rt.call(closure, [item, k]));
    return list;
  }),
  any: method(0, 1, (rt, list, args) => {
    const closure = args.length > 0 ? closureArg(args, 0, 'any') : null;
    return list.some((item) => (closure ? holds(rt, closure, item) : truthy(item)));
  }),
  every: method(0, 1, (rt, list, args) => {
    const closure = args.length > 0 ? closureArg(args, 0, 'every') : null;
    return list.every((item) => (closure ? holds(rt, closure, item) : truthy(item)));
  }),
  count: method(1, 1, (rt, list, args) => {
    const test = args[0];
    if (test instanceof GroovyClosure) return list.filter((item) => holds(rt, test, item)).length;
    rt.tick(list.length);
    return list.filter((item) => groovyEquals(item, test)).length;
  }),
  join: method(0, 1, (rt, list, args) => {
    const separator = args.length > 0 ? stringArg(args, 0, 'join') : '';
    return joined(rt, list, separator);
  }),
  sum: method(0, 1, (rt, list, args) => {
    if (args[0] instanceof GroovyClosure) {
      const closure = args[0];
      return sum(
        rt,
        list.map((item) => rt.call(closure, [item])),
        null,
      );
    }
    return sum(rt, list, args.length > 0 ? { value: args[0] } : null);
  }),
  min: method(0, 1, (rt, list, args) => extreme(rt, list, args, 'min', -1)),
  max: method(0, 1, (rt, list, args) => extreme(rt, list, args, 'max', 1)),
  sort: method(0, 1, (rt, list, args) =>
    [...list].sort(comparatorOf(rt, args.length > 0 ? closureArg(args, 0, 'sort') : null)),
  ),
  unique: method(0, 0, (rt, list) => unique(rt, list)),
  reverse: method(0, 0, (_rt, list) => [...list].reverse()),
  groupBy: method(1, 1, (rt, list, args) => groupBy(rt, list, closureArg(args, 0, 'groupBy'))),
  collectEntries: method(0, 1, (rt, list, args) =>
    collectEntries(rt, list, args.length > 0 ? closureArg(args, 0, 'collectEntries') : null, 'collectEntries'),
  ),
  inject: method(1, 2, (rt, list, args) => {
    const closure = closureArg(args, args.length - 1, 'inject');
    if (args.length === 1 && list.length === 0) throw emptyCollection('inject');
    let accumulator = args.length === 2 ? args[0] : list[0];
    for (let k = args.length === 2 ? 0 : 1; k < list.length; k++)
      accumulator = rt.call(closure, [accumulator, list[k]]);
    return accumulator;
  }),
  plus: method(1, 1, (rt, list, args) => plus(rt, list, args[0])),
  minus: method(1, 1, (rt, list, args) => minus(rt, list, args[0])),
  multiply: method(1, 1, (rt, list, args) => multiply(rt, list, args[0])),
  toList: method(0, 0, (_rt, list) => [...list]),
  stream: method(0, 0, (_rt, list) => list),
};

export const MAP_METHODS: MethodTable<GroovyMap> = {
  size: method(0, 0, (_rt, map) => mapSize(map)),
  isEmpty: method(0, 0, (_rt, map) => mapSize(map) === 0),
  get: method(1, 1, (_rt, map, args) => mapGet(map, args[0])),
  getAt: method(1, 1, (_rt, map, args) => mapGet(map, args[0])),
  containsKey: method(1, 1, (_rt, map, args) => mapHas(map, args[0])),
  containsValue: method(1, 1, (rt, map, args) => {
    const entries = mapEntries(map);
    rt.tick(entries.length);
    return entries.some((entry) => javaEquals(entry.value, args[0]));
  }),
  keySet: method(0, 0, (_rt, map) => mapEntries(map).map((entry) => entry.key)),
  values: method(0, 0, (_rt, map) => mapEntries(map).map((entry) => entry.value)),
  entrySet: method(0, 0, (_rt, map) => mapEntries(map)),
  find: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'find');
    return mapEntries(map).find((entry) => truthy(callOnEntry(rt, closure, entry))) ?? null;
  }),
  findAll: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'findAll');
    const result = new Map<MapKey, unknown>();
    for (const entry of mapEntries(map))
      if (truthy(callOnEntry(rt, closure, entry))) result.set(mapKeyOf(entry.key), entry.value);
    return result;
  }),
  collect: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'collect');
    return mapEntries(map).map((entry) => callOnEntry(rt, closure, entry));
  }),
  each: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'each');
    for (const entry of mapEntries(map)) callOnEntry(rt, closure, entry);
    return map;
  }),
  any: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'any');
    return mapEntries(map).some((entry) => truthy(callOnEntry(rt, closure, entry)));
  }),
  every: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'every');
    return mapEntries(map).every((entry) => truthy(callOnEntry(rt, closure, entry)));
  }),
  count: method(1, 1, (rt, map, args) => {
    const closure = closureArg(args, 0, 'count');
    return mapEntries(map).filter((entry) => truthy(callOnEntry(rt, closure, entry))).length;
  }),
  collectEntries: method(1, 1, (rt, map, args) =>
    collectEntries(rt, mapEntries(map), closureArg(args, 0, 'collectEntries'), 'collectEntries'),
  ),
  plus: method(1, 1, (rt, map, args) => plus(rt, map, args[0])),
};
