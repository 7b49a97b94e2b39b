/**
 * Groovy's number tower. An Integer is a plain JavaScript number holding an int32; Long and BigInteger wrap a
 * bigint; Float and Double wrap a number; decimals are BigDecimal. (A plain number that is not an int32 can only come
 * from a list handed in by the caller, whose elements are not converted one by one: it counts as a Double.) Operators pick the widest operand kind as Groovy's
 * NumberMath does: Float/Double → Double, else BigDecimal, else BigInteger, else Long, else Integer; `/` on
 * integers and decimals gives a BigDecimal.
 */
import type { NumberLiteral } from './ast';
import { BigDecimal } from './bigDecimal';
import { ExpressionError } from './errors';

export { BigDecimal };

export class LongValue {
  constructor(
    readonly value: bigint,
    readonly kind: 'Long' | 'BigInteger',
  ) {}
}

export class FloatingValue {
  constructor(
    readonly value: number,
    readonly kind: 'Float' | 'Double',
  ) {}
}

export type GroovyNumber = number | LongValue | FloatingValue | BigDecimal;
export type NumberKind = 'Integer' | 'Long' | 'BigInteger' | 'BigDecimal' | 'Float' | 'Double';
export type ArithmeticOperator = '+' | '-' | '*' | '/' | '%';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export function isGroovyNumber(value: unknown): value is GroovyNumber {
  return (
    typeof value === 'number' ||
    value instanceof LongValue ||
    value instanceof FloatingValue ||
    value instanceof BigDecimal
  );
}

function isInt32(n: number): boolean {
  return (n | 0) === n && !Object.is(n, -0);
}

export function numberKind(n: GroovyNumber): NumberKind {
  if (typeof n === 'number') return isInt32(n) ? 'Integer' : 'Double';
  if (n instanceof BigDecimal) return 'BigDecimal';
  return n.kind;
}

const RANK: Record<NumberKind, number> = { Integer: 0, Long: 1, BigInteger: 2, BigDecimal: 3, Float: 4, Double: 4 };

export function double(value: number): FloatingValue {
  return new FloatingValue(value, 'Double');
}

export function float(value: number): FloatingValue {
  return new FloatingValue(Math.fround(value), 'Float');
}

export function long(value: bigint): LongValue {
  return new LongValue(BigInt.asIntN(64, value), 'Long');
}

/** An integer result in the narrowest of Integer, Long, BigInteger that holds it (Groovy's literal typing). */
export function integral(value: bigint): GroovyNumber {
  if (value >= BigInt(INT_MIN) && value <= BigInt(INT_MAX)) return Number(value);
  if (value >= LONG_MIN && value <= LONG_MAX) return new LongValue(value, 'Long');
  return new LongValue(value, 'BigInteger');
}

/** A number handed in by the caller: int32 → Integer, other safe integers → Long, the rest → Double. */
export function fromHostNumber(value: number): GroovyNumber {
  if (Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX && !Object.is(value, -0)) return value;
  if (Number.isSafeInteger(value)) return new LongValue(BigInt(value), 'Long');
  return double(value);
}

export function toDouble(n: GroovyNumber): number {
  if (typeof n === 'number') return n;
  if (n instanceof BigDecimal) return n.toNumber();
  if (n instanceof LongValue) return Number(n.value);
  return n.value;
}

/** Integer part as a bigint (Java `longValue` without the 64-bit wrap). Non-finite doubles have none. */
export function toBigInt(n: GroovyNumber): bigint {
  if (n instanceof LongValue) return n.value;
  if (n instanceof BigDecimal) return n.toBigInt();
  const value = typeof n === 'number' ? n : n.value;
  if (!Number.isFinite(value)) return value > 0 ? LONG_MAX : value < 0 ? LONG_MIN : 0n;
  return BigInt(Math.trunc(value));
}

export function toBigDecimal(n: GroovyNumber): BigDecimal {
  if (typeof n === 'number' && isInt32(n)) return BigDecimal.of(BigInt(n));
  if (n instanceof LongValue) return BigDecimal.of(n.value);
  if (n instanceof BigDecimal) return n;
  const converted = BigDecimal.fromDouble(typeof n === 'number' ? n : n.value);
  if (!converted)
    throw new ExpressionError('numberFormat', `${numberToString(n)} has no decimal value.`, {
      value: numberToString(n),
    });
  return converted;
}

/** Converts between number kinds the way Java's xxxValue() methods do (truncating, wrapping). */
export function convertNumber(n: GroovyNumber, kind: NumberKind): GroovyNumber {
  if (numberKind(n) === kind) return n;
  switch (kind) {
    case 'Integer':
      return Number(BigInt.asIntN(32, toBigInt(n)));
    case 'Long':
      return long(toBigInt(n));
    case 'BigInteger':
      return new LongValue(toBigInt(n), 'BigInteger');
    case 'BigDecimal':
      return toBigDecimal(n);
    case 'Float':
      return float(toDouble(n));
    case 'Double':
      return double(toDouble(n));
  }
}

function widest(a: GroovyNumber, b: GroovyNumber): NumberKind {
  const ka = numberKind(a);
  const kb = numberKind(b);
  if (RANK[ka] === 4 || RANK[kb] === 4) return 'Double';
  return RANK[ka] >= RANK[kb] ? ka : kb;
}

function wrapIntegral(value: bigint, kind: NumberKind): GroovyNumber {
  if (kind === 'Integer') return Number(BigInt.asIntN(32, value));
  if (kind === 'Long') return long(value);
  return new LongValue(value, 'BigInteger');
}

/** Largest number of digits a BigInteger or BigDecimal may reach: beyond, arithmetic would stall the process. */
const MAX_DIGITS = 10_000;
const MAX_MAGNITUDE = 10n ** BigInt(MAX_DIGITS);

function tooLarge(): ExpressionError {
  return new ExpressionError('valueTooLarge', `A number would have more than ${MAX_DIGITS} digits.`, {
    limit: MAX_DIGITS,
  });
}

/** Checks that an exact (BigInteger or BigDecimal) result stays within MAX_DIGITS. */
function bounded(n: GroovyNumber): GroovyNumber {
  const digits =
    n instanceof BigDecimal ? n.unscaled : n instanceof LongValue && n.kind === 'BigInteger' ? n.value : null;
  if (digits !== null && (digits > MAX_MAGNITUDE || digits < -MAX_MAGNITUDE)) throw tooLarge();
  if (n instanceof BigDecimal && Math.abs(n.scale) > MAX_DIGITS) throw tooLarge();
  return n;
}

function divisionByZero(): ExpressionError {
  return new ExpressionError('divisionByZero', 'Division by zero.');
}

export function arithmetic(op: ArithmeticOperator, a: GroovyNumber, b: GroovyNumber): GroovyNumber {
  if (typeof a === 'number' && typeof b === 'number' && op !== '/' && isInt32(a) && isInt32(b))
    return integerArithmetic(op, a, b);
  return bounded(wideArithmetic(op, a, b));
}

function integerArithmetic(op: Exclude<ArithmeticOperator, '/'>, a: number, b: number): number {
  switch (op) {
    case '+':
      return (a + b) | 0;
    case '-':
      return (a - b) | 0;
    case '*':
      return Math.imul(a, b);
    case '%':
      if (b === 0) throw divisionByZero();
      return (a % b) | 0;
  }
}

function wideArithmetic(op: ArithmeticOperator, a: GroovyNumber, b: GroovyNumber): GroovyNumber {
  const kind = widest(a, b);
  if (kind === 'Double') {
    const x = toDouble(a);
    const y = toDouble(b);
    switch (op) {
      case '+':
        return double(x + y);
      case '-':
        return double(x - y);
      case '*':
        return double(x * y);
      case '/':
        return double(x / y);
      case '%':
        return double(x % y);
    }
  }
  if (kind === 'BigDecimal' || op === '/') {
    const x = toBigDecimal(a);
    const y = toBigDecimal(b);
    switch (op) {
      case '+':
        return x.add(y);
      case '-':
        return x.subtract(y);
      case '*':
        return x.multiply(y);
      case '/':
        return x.divideGroovy(y);
      case '%':
        return x.remainder(y);
    }
  }
  const x = toBigInt(a);
  const y = toBigInt(b);
  switch (op) {
    case '+':
      return wrapIntegral(x + y, kind);
    case '-':
      return wrapIntegral(x - y, kind);
    case '*':
      return wrapIntegral(x * y, kind);
    default:
      if (y === 0n) throw divisionByZero();
      return wrapIntegral(x % y, kind);
  }
}

/** `intdiv()`: Java integer division, for Integer, Long and BigInteger. */
export function intdiv(a: GroovyNumber, b: GroovyNumber): GroovyNumber {
  const kind = widest(a, b);
  if (RANK[kind] > RANK.BigInteger) {
    throw new ExpressionError('noSuchMethod', `intdiv() needs integer operands, not ${kind}.`, {
      method: 'intdiv',
      type: kind,
    });
  }
  const y = toBigInt(b);
  if (y === 0n) throw divisionByZero();
  return wrapIntegral(toBigInt(a) / y, kind);
}

/** `**` as DefaultGroovyMethods.power: integers stay exact (widening as needed), decimals too, the rest is Double. */
export function power(base: GroovyNumber, exponent: GroovyNumber): GroovyNumber {
  const baseKind = numberKind(base);
  const exponentKind = numberKind(exponent);
  const integralExponent = exponentKind === 'Integer' || exponentKind === 'Long' || exponentKind === 'BigInteger';
  if (integralExponent && RANK[baseKind] <= RANK.BigDecimal) {
    const e = toBigInt(exponent);
    if (e >= 0n) {
      // Estimate the size first: 2 ** 100000000 must fail at once, not after minutes of multiplying.
      const digits =
        baseKind === 'BigDecimal'
          ? (base as BigDecimal).precision()
          : toBigInt(base).toString().replace('-', '').length;
      const magnitude = Math.abs(toDouble(base));
      const estimate =
        Number.isFinite(magnitude) && magnitude > 0 ? Math.log10(magnitude) * Number(e) : (digits - 1) * Number(e);
      if (estimate > MAX_DIGITS || (baseKind === 'BigDecimal' && digits * Number(e) > MAX_DIGITS)) throw tooLarge();
      if (baseKind === 'BigDecimal') return bounded((base as BigDecimal).pow(Number(e)));
      const result = toBigInt(base) ** e;
      if (baseKind === 'BigInteger') return bounded(new LongValue(result, 'BigInteger'));
      return integral(result);
    }
  }
  return double(Math.pow(toDouble(base), toDouble(exponent)));
}

export function negate(n: GroovyNumber): GroovyNumber {
  if (typeof n === 'number') return isInt32(n) ? -n | 0 : double(-n);
  if (n instanceof BigDecimal) return n.negate();
  if (n instanceof LongValue) return n.kind === 'Long' ? long(-n.value) : new LongValue(-n.value, 'BigInteger');
  return new FloatingValue(-n.value, n.kind);
}

export function isZero(n: GroovyNumber): boolean {
  if (typeof n === 'number') return n === 0;
  if (n instanceof BigDecimal) return n.signum() === 0;
  if (n instanceof LongValue) return n.value === 0n;
  return n.value === 0;
}

/** Numeric comparison across kinds (NumberMath.compareTo); NaN sorts above everything, as Double.compare does. */
export function compareNumbers(a: GroovyNumber, b: GroovyNumber): number {
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b))
    return a === b ? 0 : a < b ? -1 : 1;
  const kind = widest(a, b);
  if (kind === 'Double') {
    const x = toDouble(a);
    const y = toDouble(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return x === y ? 0 : x < y ? -1 : 1;
  }
  if (kind === 'BigDecimal') return toBigDecimal(a).compareTo(toBigDecimal(b));
  const x = toBigInt(a);
  const y = toBigInt(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Java `equals` between numbers: same class and same value (1 is not 1L, 1.0 is not 1.00). */
export function javaNumberEquals(a: GroovyNumber, b: GroovyNumber): boolean {
  if (numberKind(a) !== numberKind(b)) return false;
  if (typeof a === 'number' || typeof b === 'number') return Object.is(toDouble(a), toDouble(b));
  if (a instanceof BigDecimal) return a.equals(b as BigDecimal);
  if (a instanceof LongValue) return a.value === (b as LongValue).value;
  return Object.is(a.value, (b as FloatingValue).value);
}

/** Digits and exponent of the shortest decimal that reads back as `value` (as a double, or as a float). */
function shortestDigits(value: number, asFloat: boolean): { digits: string; exponent: number } {
  let text = value.toExponential();
  if (asFloat) {
    for (let precision = 1; precision <= 9; precision++) {
      const candidate = value.toExponential(precision - 1);
      if (Math.fround(Number(candidate)) === value) {
        text = candidate;
        break;
      }
    }
  }
  const [mantissa, exponent] = text.split('e');
  return { digits: mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0', exponent: Number(exponent) };
}

/** Java `Double.toString` / `Float.toString`: `1.0`, `0.001`, `1.0E7`, `1.2E-4`. */
function floatingToString(value: number, asFloat: boolean): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const { digits, exponent } = shortestDigits(Math.abs(value), asFloat);
  if (exponent >= -3 && exponent < 7) {
    if (exponent >= 0) {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
      const fraction = digits.slice(exponent + 1) || '0';
      return `${sign}${whole}.${fraction}`;
    }
    return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent}`;
}

export function numberToString(n: GroovyNumber): string {
  if (typeof n === 'number') return isInt32(n) ? String(n) : floatingToString(n, false);
  if (n instanceof BigDecimal) return n.toString();
  if (n instanceof LongValue) return n.value.toString();
  return floatingToString(n.value, n.kind === 'Float');
}

function numberFormat(text: string): ExpressionError {
  return new ExpressionError('numberFormat', `For input string: "${text}"`, { value: text });
}

/** Java `Integer.parseInt` / `Long.parseLong`: optional sign and ASCII digits, nothing else, within range. */
export function parseIntegral(text: string, kind: 'Integer' | 'Long' | 'BigInteger'): GroovyNumber {
  if (!/^[+-]?\d+$/.test(text)) throw numberFormat(text);
  const value = BigInt(text);
  if (kind === 'Integer') {
    if (value < BigInt(INT_MIN) || value > BigInt(INT_MAX)) throw numberFormat(text);
    return Number(value);
  }
  if (kind === 'Long' && (value < LONG_MIN || value > LONG_MAX)) throw numberFormat(text);
  return new LongValue(value, kind);
}

/** Java `Float.parseFloat` / `Double.parseDouble`: surrounding blanks ignored, `f`/`d` suffix allowed. */
export function parseFloating(text: string, kind: 'Float' | 'Double'): FloatingValue {
  const trimmed = javaTrim(text);
  const match = /^([+-]?)(NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?$/.exec(trimmed);
  if (!match || (/[fFdD]$/.test(trimmed) && /^[+-]?(NaN|Infinity)/.test(trimmed))) throw numberFormat(text);
  const value = Number(match[1] + match[2]);
  return kind === 'Float' ? float(value) : double(value);
}

export function parseBigDecimal(text: string): BigDecimal {
  const parsed = BigDecimal.parse(text);
  if (!parsed) throw numberFormat(text);
  return parsed;
}

/** Java `String.trim`: removes characters up to U+0020 at both ends (not other Unicode spaces). */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** The value of a number literal, typed as Groovy types it (`1` Integer, `1.5` BigDecimal, `1f` Float, …). */
export function literalValue(literal: NumberLiteral): GroovyNumber {
  const { text, form, suffix } = literal;
  if (form === 'decimal' || suffix === 'f' || suffix === 'd') {
    if (suffix === 'f') return float(Number(text));
    if (suffix === 'd') return double(Number(text));
    return parseBigDecimal(text);
  }
  const value = /^0[xb]/i.test(text) ? BigInt(text) : /^0\d/.test(text) ? BigInt('0o' + text.slice(1)) : BigInt(text);
  if (suffix === 'l') return long(value);
  if (suffix === 'g') return new LongValue(value, 'BigInteger');
  if (suffix === 'i') return Number(BigInt.asIntN(32, value));
  return integral(value);
}
