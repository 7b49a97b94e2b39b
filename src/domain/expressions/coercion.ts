/**
 * Types an expression may name (declarations, casts, `as`, `instanceof`, closure parameters) and the conversions
 * Groovy applies with them: `String s = 5` gives "5", `Integer i = "5"` fails but `"5" as Integer` parses,
 * `Boolean b = "x"` uses Groovy truth.
 */
import type { DeclaredType } from './ir';
import { ExpressionError } from './errors';
import {
  GString,
  GroovyClosure,
  LocalDateValue,
  groovyToString,
  isGroovyMap,
  isStringLike,
  textOf,
  truthy,
  typeName,
} from './groovyValues';
import {
  type NumberKind,
  convertNumber,
  isGroovyNumber,
  javaTrim,
  numberKind,
  parseBigDecimal,
  parseFloating,
  parseIntegral,
} from './numbers';

export type TypeName =
  | 'Object'
  | 'String'
  | 'GString'
  | 'CharSequence'
  | 'Boolean'
  | 'Number'
  | NumberKind
  | 'List'
  | 'Map'
  | 'Closure'
  | 'LocalDate';

const TYPES: Record<string, TypeName> = {
  Object: 'Object',
  String: 'String',
  GString: 'GString',
  CharSequence: 'CharSequence',
  Boolean: 'Boolean',
  boolean: 'Boolean',
  Number: 'Number',
  Integer: 'Integer',
  int: 'Integer',
  Long: 'Long',
  long: 'Long',
  BigInteger: 'BigInteger',
  BigDecimal: 'BigDecimal',
  Float: 'Float',
  float: 'Float',
  Double: 'Double',
  double: 'Double',
  List: 'List',
  ArrayList: 'List',
  Collection: 'List',
  Iterable: 'List',
  // Sets are lists here (Set.of gives a list without duplicates).
  Set: 'List',
  HashSet: 'List',
  Map: 'Map',
  HashMap: 'Map',
  LinkedHashMap: 'Map',
  Closure: 'Closure',
  LocalDate: 'LocalDate',
};

const PACKAGES: Record<string, string> = {
  'java.lang': 'Object String CharSequence Boolean Number Integer Long Float Double Iterable',
  'java.math': 'BigInteger BigDecimal',
  'java.util': 'List ArrayList Collection Map HashMap LinkedHashMap Set HashSet',
  'java.time': 'LocalDate',
  'groovy.lang': 'GString Closure',
};

const PRIMITIVES = new Set(['boolean', 'int', 'long', 'float', 'double']);

/** The type for a written name (`String`, `java.util.List`, `int`, `String[]`), or null when it is not supported. */
export function resolveType(written: string, array: boolean): DeclaredType | null {
  if (array) return { name: 'List', primitive: false };
  const dot = written.lastIndexOf('.');
  const simple = dot < 0 ? written : written.slice(dot + 1);
  if (dot >= 0 && !PACKAGES[written.slice(0, dot)]?.split(' ').includes(simple)) return null;
  const name = TYPES[simple];
  if (!name) return null;
  return { name, primitive: PRIMITIVES.has(simple) };
}

export function isInstance(value: unknown, type: TypeName): boolean {
  switch (type) {
    case 'Object':
      return value !== null && value !== undefined;
    case 'String':
      return typeof value === 'string';
    case 'GString':
      return value instanceof GString;
    case 'CharSequence':
      return isStringLike(value);
    case 'Boolean':
      return typeof value === 'boolean';
    case 'Number':
      return isGroovyNumber(value);
    case 'List':
      return Array.isArray(value);
    case 'Map':
      return isGroovyMap(value);
    case 'Closure':
      return value instanceof GroovyClosure;
    case 'LocalDate':
      return value instanceof LocalDateValue;
    default:
      return isGroovyNumber(value) && numberKind(value) === type;
  }
}

function cannotCast(value: unknown, type: DeclaredType): ExpressionError {
  const text = groovyToString(value);
  return new ExpressionError('cannotCast', `Cannot cast '${text.slice(0, 80)}' (${typeName(value)}) to ${type.name}.`, {
    value: text.slice(0, 200),
    from: typeName(value),
    to: type.name,
  });
}

/** Parsing a string to a number for `as` (DefaultGroovyMethods.asType trims first). */
function parseAs(text: string, kind: NumberKind): unknown {
  const trimmed = javaTrim(text);
  switch (kind) {
    case 'Integer':
    case 'Long':
    case 'BigInteger':
      return parseIntegral(trimmed, kind);
    case 'Float':
    case 'Double':
      return parseFloating(trimmed, kind);
    case 'BigDecimal':
      return parseBigDecimal(trimmed);
  }
}

/**
 * Converts `value` to `type`: `style` 'cast' is an explicit cast or an assignment to a typed variable, 'as' is the
 * `as` operator (which also parses strings into numbers). `maxTextLength` bounds a conversion to String.
 */
export function coerce(value: unknown, type: DeclaredType, style: 'cast' | 'as', maxTextLength = Infinity): unknown {
  if (value === null || value === undefined) {
    if (type.primitive) throw cannotCast(null, type);
    return null;
  }
  switch (type.name) {
    case 'Object':
      return value;
    case 'String':
      return typeof value === 'string' ? value : groovyToString(value, maxTextLength);
    case 'GString':
    case 'CharSequence':
      if (isStringLike(value)) return value;
      throw cannotCast(value, type);
    case 'Boolean':
      return typeof value === 'boolean' ? value : truthy(value);
    case 'Number':
      if (isGroovyNumber(value)) return value;
      if (style === 'as' && isStringLike(value)) return parseAs(textOf(value), 'BigDecimal');
      throw cannotCast(value, type);
    case 'List':
    case 'Map':
    case 'Closure':
    case 'LocalDate':
      if (isInstance(value, type.name)) return value;
      throw cannotCast(value, type);
    default:
      if (isGroovyNumber(value)) return convertNumber(value, type.name);
      if (style === 'as' && isStringLike(value)) return parseAs(textOf(value), type.name);
      throw cannotCast(value, type);
  }
}
