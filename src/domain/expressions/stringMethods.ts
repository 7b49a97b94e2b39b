/** Built-in methods of strings (java.lang.String plus Groovy's additions); a GString answers them as its text. */
import { getAt, outOfBounds } from './access';
import { groovyCompare } from './equality';
import { ExpressionError } from './errors';
import { compileRegex, replaceRegex, splitRegex } from './regexMethods';
import { type MethodTable, intArg, method, stringArg } from './methodSupport';
import { BigDecimal, javaTrim, parseBigDecimal, parseFloating, parseIntegral } from './numbers';
import { minus, multiply, plus } from './operators';
import type { Runtime } from './runtime';

function succeeds(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch (error) {
    if (error instanceof ExpressionError) return false;
    throw error;
  }
}

function checkRange(text: string, begin: number, end: number): void {
  if (begin < 0 || end > text.length || begin > end)
    throw outOfBounds(begin < 0 || begin > end ? begin : end, text.length);
}

function pad(rt: Runtime, text: string, args: readonly unknown[], name: string, left: boolean): string {
  const width = intArg(args, 0, name);
  const filler = args.length > 1 ? stringArg(args, 1, name) : ' ';
  if (width <= text.length || filler.length === 0) return text;
  rt.checkString(width);
  const padding = filler.repeat(Math.ceil((width - text.length) / filler.length)).slice(0, width - text.length);
  return left ? padding + text : text + padding;
}

function regexTick(rt: Runtime): (steps: number) => void {
  return (steps) => rt.tick(steps);
}

/** Character.isWhitespace: Unicode space separators except no-break ones, line and paragraph separators, controls. */
function isJavaWhitespace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a && code !== 0x2007) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Java 11's strip family (a loop, not a regular expression: a long run of spaces must not cost quadratic time). */
function strip(text: string, leading: boolean, trailing: boolean): string {
  let start = 0;
  let end = text.length;
  if (leading) while (start < end && isJavaWhitespace(text.charCodeAt(start))) start++;
  if (trailing) while (end > start && isJavaWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

export const STRING_METHODS: MethodTable<string> = {
  length: method(0, 0, (_rt, s) => s.length),
  size: method(0, 0, (_rt, s) => s.length),
  isEmpty: method(0, 0, (_rt, s) => s.length === 0),
  trim: method(0, 0, (_rt, s) => javaTrim(s)),
  strip: method(0, 0, (_rt, s) => strip(s, true, true)),
  stripLeading: method(0, 0, (_rt, s) => strip(s, true, false)),
  stripTrailing: method(0, 0, (_rt, s) => strip(s, false, true)),
  isBlank: method(0, 0, (_rt, s) => strip(s, true, false).length === 0),
  toUpperCase: method(0, 0, (_rt, s) => s.toUpperCase()),
  toLowerCase: method(0, 0, (_rt, s) => s.toLowerCase()),
  toString: method(0, 0, (_rt, s) => s),
  substring: method(1, 2, (_rt, s, args) => {
    const begin = intArg(args, 0, 'substring');
    const end = args.length > 1 ? intArg(args, 1, 'substring') : s.length;
    checkRange(s, begin, end);
    return s.slice(begin, end);
  }),
  startsWith: method(1, 1, (_rt, s, args) => s.startsWith(stringArg(args, 0, 'startsWith'))),
  endsWith: method(1, 1, (_rt, s, args) => s.endsWith(stringArg(args, 0, 'endsWith'))),
  contains: method(1, 1, (_rt, s, args) => s.includes(stringArg(args, 0, 'contains'))),
  indexOf: method(1, 2, (_rt, s, args) =>
    s.indexOf(stringArg(args, 0, 'indexOf'), args.length > 1 ? intArg(args, 1, 'indexOf') : 0),
  ),
  lastIndexOf: method(1, 1, (_rt, s, args) => s.lastIndexOf(stringArg(args, 0, 'lastIndexOf'))),
  equalsIgnoreCase: method(1, 1, (_rt, s, args) => {
    const other = args[0] === null ? null : stringArg(args, 0, 'equalsIgnoreCase');
    return other !== null && other.length === s.length && other.toUpperCase() === s.toUpperCase();
  }),
  compareTo: method(1, 1, (_rt, s, args) => groovyCompare(s, stringArg(args, 0, 'compareTo'))),
  replace: method(2, 2, (rt, s, args) => {
    const target = stringArg(args, 0, 'replace');
    const replacement = stringArg(args, 1, 'replace');
    if (target === '') {
      rt.checkString(s.length + replacement.length * (s.length + 1));
      return replacement + s.split('').join(replacement) + (s.length > 0 ? replacement : '');
    }
    const result = s.split(target);
    rt.checkString(s.length + (result.length - 1) * (replacement.length - target.length));
    return result.join(replacement);
  }),
  replaceAll: method(2, 2, (rt, s, args) =>
    replaceRegex(
      compileRegex(stringArg(args, 0, 'replaceAll')),
      s,
      stringArg(args, 1, 'replaceAll'),
      true,
      regexTick(rt),
      (n) => rt.checkString(n),
    ),
  ),
  replaceFirst: method(2, 2, (rt, s, args) =>
    replaceRegex(
      compileRegex(stringArg(args, 0, 'replaceFirst')),
      s,
      stringArg(args, 1, 'replaceFirst'),
      false,
      regexTick(rt),
      (n) => rt.checkString(n),
    ),
  ),
  matches: method(1, 1, (rt, s, args) => compileRegex(stringArg(args, 0, 'matches')).matches(s, regexTick(rt))),
  split: method(0, 1, (rt, s, args) => {
    if (args.length === 0) return s.split(/[ \t\n\r\f]+/).filter((part) => part !== '');
    const parts = splitRegex(compileRegex(stringArg(args, 0, 'split')), s, regexTick(rt));
    rt.checkSize(parts.length);
    return parts;
  }),
  toInteger: method(0, 0, (_rt, s) => parseIntegral(javaTrim(s), 'Integer')),
  toLong: method(0, 0, (_rt, s) => parseIntegral(javaTrim(s), 'Long')),
  toFloat: method(0, 0, (_rt, s) => parseFloating(s, 'Float')),
  toDouble: method(0, 0, (_rt, s) => parseFloating(s, 'Double')),
  toBigDecimal: method(0, 0, (_rt, s) => parseBigDecimal(javaTrim(s))),
  isNumber: method(0, 0, (_rt, s) => BigDecimal.parse(javaTrim(s)) !== null),
  isBigDecimal: method(0, 0, (_rt, s) => BigDecimal.parse(javaTrim(s)) !== null),
  isInteger: method(0, 0, (_rt, s) => succeeds(() => parseIntegral(javaTrim(s), 'Integer'))),
  isLong: method(0, 0, (_rt, s) => succeeds(() => parseIntegral(javaTrim(s), 'Long'))),
  isFloat: method(0, 0, (_rt, s) => succeeds(() => parseFloating(s, 'Float'))),
  isDouble: method(0, 0, (_rt, s) => succeeds(() => parseFloating(s, 'Double'))),
  padLeft: method(1, 2, (rt, s, args) => pad(rt, s, args, 'padLeft', true)),
  padRight: method(1, 2, (rt, s, args) => pad(rt, s, args, 'padRight', false)),
  plus: method(1, 1, (rt, s, args) => plus(rt, s, args[0])),
  minus: method(1, 1, (rt, s, args) => minus(rt, s, args[0])),
  multiply: method(1, 1, (rt, s, args) => multiply(rt, s, args[0])),
  getAt: method(1, 1, (_rt, s, args) => getAt(s, args[0])),
};
