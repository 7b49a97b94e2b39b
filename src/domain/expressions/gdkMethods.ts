/**
 * Method calls on values (`receiver.name(args)`): which built-in method answers depends on the receiver, as with
 * Groovy's dynamic dispatch, but only the methods of these tables exist. The compiler refuses any other name, so a
 * configuration never reaches a method that is not listed here.
 */
import { getProperty, getterProperty, nullDereference } from './access';
import { LIST_METHODS, MAP_METHODS } from './collectionMethods';
import { groovyCompare, javaEquals } from './equality';
import { ExpressionError } from './errors';
import {
  CaughtException,
  GroovyClosure,
  LocalDateValue,
  LtreeValue,
  MapEntry,
  isGroovyMap,
  isRecord,
  isStringLike,
  mapHas,
  textOf,
  typeName,
} from './groovyValues';
import { LOCAL_DATE_METHODS } from './javaTime';
import { type MethodSpec, type MethodTable, method, ownEntry } from './methodSupport';
import { type GroovyNumber, convertNumber, intdiv, isGroovyNumber, negate } from './numbers';
import { minus, multiply, plus } from './operators';
import type { Runtime } from './runtime';
import { STRING_METHODS } from './stringMethods';

const NUMBER_METHODS: MethodTable<GroovyNumber> = {
  toInteger: method(0, 0, (_rt, n) => convertNumber(n, 'Integer')),
  intValue: method(0, 0, (_rt, n) => convertNumber(n, 'Integer')),
  toLong: method(0, 0, (_rt, n) => convertNumber(n, 'Long')),
  toFloat: method(0, 0, (_rt, n) => convertNumber(n, 'Float')),
  toDouble: method(0, 0, (_rt, n) => convertNumber(n, 'Double')),
  doubleValue: method(0, 0, (_rt, n) => convertNumber(n, 'Double')),
  toBigDecimal: method(0, 0, (_rt, n) => convertNumber(n, 'BigDecimal')),
  abs: method(0, 0, (_rt, n) => (isNegative(n) ? negate(n) : n)),
  intdiv: method(1, 1, (_rt, n, args) => {
    if (!isGroovyNumber(args[0]))
      throw new ExpressionError('badArguments', 'intdiv() needs a number.', { method: 'intdiv' });
    return intdiv(n, args[0]);
  }),
  compareTo: method(1, 1, (_rt, n, args) => groovyCompare(n, args[0])),
  plus: method(1, 1, (rt, n, args) => plus(rt, n, args[0])),
  minus: method(1, 1, (rt, n, args) => minus(rt, n, args[0])),
  multiply: method(1, 1, (rt, n, args) => multiply(rt, n, args[0])),
};

function isNegative(n: GroovyNumber): boolean {
  return groovyCompare(n, 0) < 0;
}

/** Methods every value has. */
const OBJECT_METHODS: MethodTable<unknown> = {
  equals: method(1, 1, (_rt, self, args) => javaEquals(self, args[0])),
  toString: method(0, 0, (rt, self) => rt.text(self)),
};

/** The calls Groovy allows on null: `null.toString()`, `null.equals(x)`, and iterations that do nothing. */
const NULL_METHODS: MethodTable<null> = {
  toString: method(0, 0, () => 'null'),
  equals: method(1, 1, (_rt, _self, args) => args[0] === null || args[0] === undefined),
  each: method(1, 1, () => null),
  collect: method(1, 1, () => []),
  findAll: method(1, 1, () => []),
  find: method(1, 1, () => null),
  any: method(1, 1, () => false),
  every: method(1, 1, () => true),
};

/** A caught exception tells its message; `throw e` raises it again. */
const CAUGHT_METHODS: MethodTable<CaughtException> = {
  getMessage: method(0, 0, (_rt, caught) => caught.error.message),
};

const CLOSURE_METHODS: MethodTable<GroovyClosure> = {
  call: method(0, 16, (rt, closure, args) => rt.call(closure, args)),
};

/**
 * Accessor methods of the records the original exposes (Java records: `configuration.i18n()`), answered from the
 * property of the same name.
 */
export const RECORD_ACCESSORS: ReadonlySet<string> = new Set([
  'configuration',
  'i18n',
  'data',
  'title',
  'description',
  'name',
  'version',
]);

/** Every method name some receiver answers; the compiler refuses the others. */
export const METHOD_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(STRING_METHODS),
  ...Object.keys(LIST_METHODS),
  ...Object.keys(MAP_METHODS),
  ...Object.keys(NUMBER_METHODS),
  ...Object.keys(OBJECT_METHODS),
  ...Object.keys(NULL_METHODS),
  ...Object.keys(CLOSURE_METHODS),
  ...Object.keys(LOCAL_DATE_METHODS),
  ...Object.keys(CAUGHT_METHODS),
]);

function tableFor(receiver: unknown): MethodTable<never> | null {
  if (isStringLike(receiver)) return STRING_METHODS as MethodTable<never>;
  if (Array.isArray(receiver)) return LIST_METHODS as MethodTable<never>;
  if (isGroovyMap(receiver)) return MAP_METHODS as MethodTable<never>;
  if (isGroovyNumber(receiver)) return NUMBER_METHODS as MethodTable<never>;
  if (receiver instanceof GroovyClosure) return CLOSURE_METHODS as MethodTable<never>;
  if (receiver instanceof LocalDateValue) return LOCAL_DATE_METHODS as MethodTable<never>;
  if (receiver instanceof CaughtException) return CAUGHT_METHODS as MethodTable<never>;
  return null;
}

function checkArity(spec: MethodSpec<never>, name: string, args: readonly unknown[]): void {
  if (args.length < spec.min || args.length > spec.max) {
    const expected = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`;
    throw new ExpressionError('badArguments', `${name}() takes ${expected} argument(s), not ${args.length}.`, {
      method: name,
      expected,
      actual: args.length,
    });
  }
}

function answersGetter(receiver: unknown): boolean {
  return isGroovyMap(receiver) || receiver instanceof MapEntry || receiver instanceof LtreeValue;
}

export function invokeMethod(rt: Runtime, receiver: unknown, name: string, args: readonly unknown[]): unknown {
  rt.tick();
  if (receiver === null || receiver === undefined) {
    const spec = ownEntry(NULL_METHODS, name);
    if (!spec) throw nullDereference(`invoke method ${name}()`);
    checkArity(spec as MethodSpec<never>, name, args);
    return spec.run(rt, null, args);
  }
  const table = tableFor(receiver);
  const own = table && ownEntry(table, name);
  if (own) {
    checkArity(own, name, args);
    // A GString answers string methods as its text; equals() below still sees it as a GString.
    return (own as MethodSpec<unknown>).run(rt, isStringLike(receiver) ? textOf(receiver) : receiver, args);
  }
  const general = ownEntry(OBJECT_METHODS, name);
  if (general) {
    checkArity(general as MethodSpec<never>, name, args);
    return general.run(rt, receiver, args);
  }
  if (args.length === 0 && answersGetter(receiver)) {
    const property = getterProperty(name);
    if (property !== null) return getProperty(receiver, property);
    if (RECORD_ACCESSORS.has(name) && isRecord(receiver) && mapHas(receiver, name)) return getProperty(receiver, name);
  }
  throw new ExpressionError('noSuchMethod', `No method ${name}() on ${typeName(receiver)}.`, {
    method: name,
    type: typeName(receiver),
  });
}
