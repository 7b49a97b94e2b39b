/**
 * The part of java.math.BigDecimal that Groovy arithmetic needs: decimal literals (`1.5`), integer division
 * (`1/2` is 0.5) and exact sums. Value = unscaled × 10^-scale, like Java.
 */
import { ExpressionError } from './errors';

const TEN = 10n;

function pow10(n: number): bigint {
  return TEN ** BigInt(n);
}

function digitCount(n: bigint): number {
  return (n < 0n ? -n : n).toString().length;
}

/** Rounds `numerator / denominator` (denominator > 0) half away from zero, as RoundingMode.HALF_UP does. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice >= denominator) return numerator < 0n ? quotient - 1n : quotient + 1n;
  return quotient;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** Exponents beyond this are refused when reading a decimal (Java accepts more, but no data needs them). */
const MAX_PARSED_SCALE = 10_000;

/** Extra digits and minimum scale of Groovy's non-terminating division (BigDecimalMath). */
const DIVISION_EXTRA_PRECISION = 10;
const DIVISION_MIN_SCALE = 10;

export class BigDecimal {
  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
  ) {}

  static of(value: bigint): BigDecimal {
    return new BigDecimal(value, 0);
  }

  /** Java's `new BigDecimal(String)` grammar; returns null when the text is not a number. */
  static parse(text: string): BigDecimal | null {
    const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
    if (!match) return null;
    const [, sign, whole, fraction = '', exponent] = match;
    if (whole === '' && fraction === '') return null;
    const digits = BigInt((whole || '0') + fraction);
    const scale = fraction.length - (exponent ? Number(exponent) : 0);
    if (!Number.isSafeInteger(scale) || Math.abs(scale) > MAX_PARSED_SCALE) return null;
    return new BigDecimal(sign === '-' ? -digits : digits, scale);
  }

  /** Java's `new BigDecimal(Double.toString(d))`, which is what Groovy uses to mix doubles into decimals. */
  static fromDouble(value: number): BigDecimal | null {
    if (!Number.isFinite(value)) return null;
    return BigDecimal.parse(String(value));
  }

  signum(): number {
    return this.unscaled === 0n ? 0 : this.unscaled < 0n ? -1 : 1;
  }

  precision(): number {
    return this.unscaled === 0n ? 1 : digitCount(this.unscaled);
  }

  negate(): BigDecimal {
    return new BigDecimal(-this.unscaled, this.scale);
  }

  abs(): BigDecimal {
    return this.unscaled < 0n ? this.negate() : this;
  }

  /** Both values brought to the larger scale. */
  private static align(a: BigDecimal, b: BigDecimal): [bigint, bigint, number] {
    if (a.scale === b.scale) return [a.unscaled, b.unscaled, a.scale];
    if (a.scale > b.scale) return [a.unscaled, b.unscaled * pow10(a.scale - b.scale), a.scale];
    return [a.unscaled * pow10(b.scale - a.scale), b.unscaled, b.scale];
  }

  add(other: BigDecimal): BigDecimal {
    const [x, y, scale] = BigDecimal.align(this, other);
    return new BigDecimal(x + y, scale);
  }

  subtract(other: BigDecimal): BigDecimal {
    const [x, y, scale] = BigDecimal.align(this, other);
    return new BigDecimal(x - y, scale);
  }

  multiply(other: BigDecimal): BigDecimal {
    return new BigDecimal(this.unscaled * other.unscaled, this.scale + other.scale);
  }

  compareTo(other: BigDecimal): number {
    const [x, y] = BigDecimal.align(this, other);
    return x === y ? 0 : x < y ? -1 : 1;
  }

  /** Java equality: same value and same scale (1.0 is not 1.00). */
  equals(other: BigDecimal): boolean {
    return this.unscaled === other.unscaled && this.scale === other.scale;
  }

  setScale(scale: number): BigDecimal {
    if (scale === this.scale) return this;
    if (scale > this.scale) return new BigDecimal(this.unscaled * pow10(scale - this.scale), scale);
    return new BigDecimal(divideHalfUp(this.unscaled, pow10(this.scale - scale)), scale);
  }

  /** Exact quotient when it has a finite decimal expansion (Java `divide(BigDecimal)`), else null. */
  private divideExact(divisor: BigDecimal): BigDecimal | null {
    const common = gcd(this.unscaled, divisor.unscaled);
    let numerator = this.unscaled / common;
    let denominator = divisor.unscaled / common;
    if (denominator < 0n) {
      numerator = -numerator;
      denominator = -denominator;
    }
    let twos = 0;
    let fives = 0;
    let rest = denominator;
    while (rest % 2n === 0n) {
      rest /= 2n;
      twos++;
    }
    while (rest % 5n === 0n) {
      rest /= 5n;
      fives++;
    }
    if (rest !== 1n) return null;
    const extra = Math.max(twos, fives);
    return new BigDecimal(numerator * (pow10(extra) / denominator), extra + this.scale - divisor.scale);
  }

  /** Quotient rounded half-up to `precision` significant digits (Java `divide(BigDecimal, MathContext)`). */
  private divideToPrecision(divisor: BigDecimal, precision: number): BigDecimal {
    const negative = this.unscaled < 0n !== divisor.unscaled < 0n;
    const numerator = this.unscaled < 0n ? -this.unscaled : this.unscaled;
    const denominator = divisor.unscaled < 0n ? -divisor.unscaled : divisor.unscaled;
    // Choose the scale so that the integer quotient has `precision` digits.
    let scale = precision - (digitCount(numerator) - digitCount(denominator)) + this.scale - divisor.scale - 1;
    for (;;) {
      const shift = scale - this.scale + divisor.scale;
      const scaledNumerator = shift >= 0 ? numerator * pow10(shift) : numerator;
      const scaledDenominator = shift >= 0 ? denominator : denominator * pow10(-shift);
      const truncated = scaledNumerator / scaledDenominator;
      const digits = digitCount(truncated);
      if (truncated !== 0n && digits > precision) {
        scale--;
        continue;
      }
      if (digits < precision) {
        scale++;
        continue;
      }
      let rounded = divideHalfUp(scaledNumerator, scaledDenominator);
      if (digitCount(rounded) > precision) {
        rounded /= TEN;
        scale--;
      }
      return new BigDecimal(negative ? -rounded : rounded, scale);
    }
  }

  /** Groovy's `/` on integers and decimals: exact when possible, else 10 extra digits and at most 10 decimals. */
  divideGroovy(divisor: BigDecimal): BigDecimal {
    if (divisor.unscaled === 0n) throw new ExpressionError('divisionByZero', 'Division by zero.');
    if (this.unscaled === 0n) return new BigDecimal(0n, Math.max(this.scale - divisor.scale, 0));
    const exact = this.divideExact(divisor);
    if (exact) return exact;
    const precision = Math.max(this.precision(), divisor.precision()) + DIVISION_EXTRA_PRECISION;
    const result = this.divideToPrecision(divisor, precision);
    const scale = Math.max(result.scale, this.scale, divisor.scale);
    return scale > DIVISION_MIN_SCALE ? result.setScale(DIVISION_MIN_SCALE) : result;
  }

  /** Java `remainder`: the sign follows the dividend. */
  remainder(divisor: BigDecimal): BigDecimal {
    if (divisor.unscaled === 0n) throw new ExpressionError('divisionByZero', 'Division by zero.');
    const [x, y, scale] = BigDecimal.align(this, divisor);
    return new BigDecimal(x % y, scale);
  }

  pow(exponent: number): BigDecimal {
    return new BigDecimal(this.unscaled ** BigInt(exponent), this.scale * exponent);
  }

  /** Integer part, truncated toward zero (Java `toBigInteger`). */
  toBigInt(): bigint {
    if (this.scale <= 0) return this.unscaled * pow10(-this.scale);
    return this.unscaled / pow10(this.scale);
  }

  toNumber(): number {
    return Number(this.toString());
  }

  /** Java `BigDecimal.toString()`: plain unless the exponent is small, then scientific (`1E-7`, `2E+2`). */
  toString(): string {
    const negative = this.unscaled < 0n;
    const coefficient = (negative ? -this.unscaled : this.unscaled).toString();
    const adjusted = -this.scale + (coefficient.length - 1);
    let text: string;
    if (this.scale >= 0 && adjusted >= -6) {
      if (this.scale === 0) text = coefficient;
      else if (coefficient.length > this.scale) {
        text =
          coefficient.slice(0, coefficient.length - this.scale) +
          '.' +
          coefficient.slice(coefficient.length - this.scale);
      } else text = '0.' + '0'.repeat(this.scale - coefficient.length) + coefficient;
    } else {
      const mantissa = coefficient.length > 1 ? coefficient[0] + '.' + coefficient.slice(1) : coefficient;
      text = mantissa + 'E' + (adjusted >= 0 ? '+' : '') + adjusted;
    }
    return negative ? '-' + text : text;
  }
}
