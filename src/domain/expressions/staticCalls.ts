/**
 * The only Java classes an expression may name, and the only members it may use on them. A class or member
 * outside this list is a compile error, so `System.exit(0)` or `Class.forName(…)` never reach evaluation.
 */
import { nullDereference } from './access';
import { COLLECTION_FACTORIES } from './collectionFactories';
import { ExpressionError } from './errors';
import { CollectorValue, LtreeValue, isStringLike, textOf } from './groovyValues';
import { badArgument, ownEntry, stringArg } from './methodSupport';
import { JAVA_TIME_CLASSES } from './javaTime';
import { escapeLabel } from './naturalKeys';
import {
  type GroovyNumber,
  convertNumber,
  double,
  isGroovyNumber,
  long,
  negate,
  numberKind,
  parseFloating,
  parseIntegral,
  toDouble,
} from './numbers';
import { compare } from './operators';
import type { Runtime } from './runtime';
import type { StaticClass, StaticMember } from './staticClass';

export type { StaticMember, StaticMethod } from './staticClass';

function numberArg(args: readonly unknown[], k: number, name: string): GroovyNumber {
  const value = args[k];
  if (isGroovyNumber(value)) return value;
  if (value === null || value === undefined) throw nullDereference(`pass null to ${name}()`);
  throw badArgument(name, k, 'a number', value);
}

/** Java overload choice for Math.abs/min/max: int, long and float stay; anything else is a double. */
function mathKind(values: readonly GroovyNumber[]): 'Integer' | 'Long' | 'Float' | 'Double' {
  const kinds = values.map(numberKind);
  if (kinds.every((k) => k === 'Integer')) return 'Integer';
  if (kinds.every((k) => k === 'Integer' || k === 'Long')) return 'Long';
  if (kinds.every((k) => k === 'Integer' || k === 'Long' || k === 'Float')) return 'Float';
  return 'Double';
}

function parseText(args: readonly unknown[], name: string): string {
  const value = args[0];
  if (value === null || value === undefined) {
    throw new ExpressionError('numberFormat', 'Cannot parse null string.', { value: null });
  }
  return stringArg(args, 0, name);
}

/** `Integer.valueOf`, `Float.valueOf`, `Double.valueOf`: from a string (parsed) or a number (converted). */
function valueOf(kind: 'Integer' | 'Float' | 'Double') {
  return (_rt: Runtime, args: readonly unknown[]) => {
    if (isGroovyNumber(args[0])) return convertNumber(args[0], kind);
    const text = parseText(args, `${kind}.valueOf`);
    return kind === 'Integer' ? parseIntegral(text, 'Integer') : parseFloating(text, kind);
  };
}

function unaryMath(name: string, apply: (x: number) => number) {
  return {
    min: 1,
    max: 1,
    invoke: (_rt: Runtime, args: readonly unknown[]) => double(apply(toDouble(numberArg(args, 0, name)))),
  };
}

const LOCALES: Record<string, string> = {
  ROOT: '',
  ENGLISH: 'en',
  FRENCH: 'fr',
  GERMAN: 'de',
  ITALIAN: 'it',
  JAPANESE: 'ja',
  CHINESE: 'zh',
  FRANCE: 'fr_FR',
  GERMANY: 'de_DE',
  ITALY: 'it_IT',
  UK: 'en_GB',
  US: 'en_US',
  CANADA: 'en_CA',
  CANADA_FRENCH: 'fr_CA',
};

const CLASSES: readonly StaticClass[] = [
  {
    names: ['Integer', 'java.lang.Integer'],
    methods: {
      parseInt: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => parseIntegral(parseText(args, 'Integer.parseInt'), 'Integer'),
      },
      valueOf: { min: 1, max: 1, invoke: valueOf('Integer') },
    },
    constants: { MAX_VALUE: 2147483647, MIN_VALUE: -2147483648 },
  },
  {
    names: ['Float', 'java.lang.Float'],
    methods: {
      parseFloat: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          if (args[0] === null || args[0] === undefined) throw nullDereference('parse a null string');
          return parseFloating(stringArg(args, 0, 'Float.parseFloat'), 'Float');
        },
      },
      valueOf: { min: 1, max: 1, invoke: valueOf('Float') },
    },
    constants: {},
  },
  {
    names: ['Double', 'java.lang.Double'],
    methods: {
      parseDouble: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          if (args[0] === null || args[0] === undefined) throw nullDereference('parse a null string');
          return parseFloating(stringArg(args, 0, 'Double.parseDouble'), 'Double');
        },
      },
      valueOf: { min: 1, max: 1, invoke: valueOf('Double') },
    },
    constants: {},
  },
  {
    names: ['Math', 'java.lang.Math'],
    methods: {
      abs: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          const value = numberArg(args, 0, 'Math.abs');
          const converted = convertNumber(value, mathKind([value]));
          return compare('<', converted, 0) ? negate(converted) : converted;
        },
      },
      min: {
        min: 2,
        max: 2,
        invoke: (_rt, args) => {
          const [a, b] = [numberArg(args, 0, 'Math.min'), numberArg(args, 1, 'Math.min')];
          const kind = mathKind([a, b]);
          return convertNumber(compare('<=', a, b) ? a : b, kind);
        },
      },
      max: {
        min: 2,
        max: 2,
        invoke: (_rt, args) => {
          const [a, b] = [numberArg(args, 0, 'Math.max'), numberArg(args, 1, 'Math.max')];
          const kind = mathKind([a, b]);
          return convertNumber(compare('>=', a, b) ? a : b, kind);
        },
      },
      round: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          const value = numberArg(args, 0, 'Math.round');
          const kind = numberKind(value);
          if (kind === 'Integer' || kind === 'Long') return value;
          // Java saturates at the bounds of int (for a float) or long (for a double), and rounds NaN to 0.
          const rounded = Math.floor(toDouble(value) + 0.5);
          if (kind === 'Float') return Number.isNaN(rounded) ? 0 : Math.max(-2147483648, Math.min(2147483647, rounded));
          if (Number.isNaN(rounded)) return long(0n);
          if (rounded >= 2 ** 63) return long(2n ** 63n - 1n);
          if (rounded <= -(2 ** 63)) return long(-(2n ** 63n));
          return long(BigInt(rounded));
        },
      },
      floor: unaryMath('Math.floor', Math.floor),
      ceil: unaryMath('Math.ceil', Math.ceil),
      sqrt: unaryMath('Math.sqrt', Math.sqrt),
      pow: {
        min: 2,
        max: 2,
        invoke: (_rt, args) =>
          double(Math.pow(toDouble(numberArg(args, 0, 'Math.pow')), toDouble(numberArg(args, 1, 'Math.pow')))),
      },
    },
    constants: { PI: double(Math.PI), E: double(Math.E) },
  },
  {
    names: ['String', 'java.lang.String'],
    methods: { valueOf: { min: 1, max: 1, invoke: (rt: Runtime, args: readonly unknown[]) => rt.text(args[0]) } },
    constants: {},
  },
  {
    names: ['Arrays', 'java.util.Arrays'],
    methods: {
      // Lists stand for Java arrays here, so a single list argument is the array itself.
      asList: {
        min: 0,
        max: 64,
        invoke: (_rt, args) => (args.length === 1 && Array.isArray(args[0]) ? [...args[0]] : [...args]),
      },
      stream: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          if (!Array.isArray(args[0])) throw badArgument('Arrays.stream', 0, 'an array', args[0]);
          return args[0];
        },
      },
    },
    constants: {},
  },
  {
    names: ['Collectors', 'java.util.stream.Collectors'],
    methods: {
      joining: {
        min: 0,
        max: 3,
        invoke: (_rt, args) => {
          if (args.length === 2) throw badArgument('Collectors.joining', 2, 'a suffix', undefined);
          const text = (k: number) => (args.length > k ? stringArg(args, k, 'Collectors.joining') : '');
          return new CollectorValue('joining', text(0), text(1), text(2));
        },
      },
      toList: { min: 0, max: 0, invoke: () => new CollectorValue('toList') },
    },
    constants: {},
  },
  {
    names: ['Strings', 'com.google.common.base.Strings'],
    methods: {
      isNullOrEmpty: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => {
          const value = args[0];
          if (value === null || value === undefined) return true;
          if (!isStringLike(value)) throw badArgument('Strings.isNullOrEmpty', 0, 'a string', value);
          return textOf(value).length === 0;
        },
      },
    },
    constants: {},
  },
  {
    names: ['Locale', 'java.util.Locale'],
    methods: {},
    constants: LOCALES,
  },
  {
    // The original's label type; configurations call it to compare a text with an escaped key.
    names: ['fr.inra.oresing.domain.application.configuration.Ltree'],
    methods: {
      fromUnescapedString: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => new LtreeValue(escapeLabel(stringArg(args, 0, 'Ltree.fromUnescapedString'))),
      },
    },
    constants: {},
  },
];

const BY_NAME = new Map<string, StaticClass>(
  [...CLASSES, ...COLLECTION_FACTORIES, ...JAVA_TIME_CLASSES].flatMap((cls) =>
    cls.names.map((name) => [name, cls] as const),
  ),
);

/** Whether a dotted name is one of the allowed classes. */
export function isStaticClass(qualifiedName: string): boolean {
  return BY_NAME.has(qualifiedName);
}

export function resolveStaticMember(qualifiedClass: string, member: string): StaticMember | undefined {
  const cls = BY_NAME.get(qualifiedClass);
  if (!cls) return undefined;
  const found = ownEntry(cls.methods, member);
  if (found) return { kind: 'method', method: { name: `${cls.names[0]}.${member}`, ...found } };
  if (Object.prototype.hasOwnProperty.call(cls.constants, member))
    return { kind: 'constant', value: cls.constants[member] };
  return undefined;
}
