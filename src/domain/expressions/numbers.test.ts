/** Groovy's number kinds, decimal arithmetic and Java's number texts. */
import { describe, expect, it } from 'vitest';
import { BigDecimal } from './bigDecimal';
import {
  FloatingValue,
  LongValue,
  arithmetic,
  compareNumbers,
  double,
  float,
  javaNumberEquals,
  literalValue,
  numberToString,
  parseFloating,
  parseIntegral,
  power,
} from './numbers';

const decimal = (text: string) => BigDecimal.parse(text)!;

describe('BigDecimal', () => {
  it('prints like java.math.BigDecimal.toString', () => {
    expect(decimal('1.50').toString()).toBe('1.50');
    expect(decimal('-0.001').toString()).toBe('-0.001');
    expect(decimal('0.0000001').toString()).toBe('1E-7');
    expect(decimal('1e3').toString()).toBe('1E+3');
    expect(decimal('12.3e-10').toString()).toBe('1.23E-9');
    expect(new BigDecimal(20n, -1).toString()).toBe('2.0E+2');
  });

  it('divides as Groovy: exact when it terminates, else ten decimals rounded half up', () => {
    const divide = (a: string, b: string) => decimal(a).divideGroovy(decimal(b)).toString();
    expect(divide('1', '4')).toBe('0.25');
    expect(divide('1', '8')).toBe('0.125');
    expect(divide('1', '3')).toBe('0.3333333333');
    expect(divide('-2', '3')).toBe('-0.6666666667');
    expect(divide('100', '7')).toBe('14.2857142857');
    expect(divide('1.00', '3')).toBe('0.3333333333');
    expect(divide('6', '3')).toBe('2');
    expect(divide('0', '3')).toBe('0');
    expect(() => divide('1', '0')).toThrowError(/Division by zero/);
  });

  it('compares by value but equals by value and scale', () => {
    expect(decimal('1.0').compareTo(decimal('1.00'))).toBe(0);
    expect(decimal('1.0').equals(decimal('1.00'))).toBe(false);
    expect(decimal('2.55').setScale(1).toString()).toBe('2.6');
    expect(decimal('-2.55').setScale(1).toString()).toBe('-2.6');
  });
});

describe('arithmetic across kinds', () => {
  it('widens to the largest kind, and to Double with any Float or Double', () => {
    expect(arithmetic('+', 1, new LongValue(2n, 'Long'))).toEqual(new LongValue(3n, 'Long'));
    expect(numberToString(arithmetic('+', 1, decimal('0.5')))).toBe('1.5');
    expect(arithmetic('*', float(1.5), 2)).toEqual(double(3));
    expect(arithmetic('-', new LongValue(2n ** 63n - 1n, 'Long'), new LongValue(-1n, 'Long'))).toEqual(
      new LongValue(-(2n ** 63n), 'Long'),
    );
  });

  it('keeps Java remainder signs', () => {
    expect(arithmetic('%', -7, 3)).toBe(-1);
    expect(numberToString(arithmetic('%', decimal('5.5'), 2))).toBe('1.5');
  });

  it('raises integers to powers exactly', () => {
    expect(power(3, 4)).toBe(81);
    expect(power(10, 12)).toEqual(new LongValue(10n ** 12n, 'Long'));
    expect(power(10, 30)).toEqual(new LongValue(10n ** 30n, 'BigInteger'));
    expect(numberToString(power(decimal('1.5'), 2))).toBe('2.25');
  });

  it('compares and equals', () => {
    expect(compareNumbers(1, decimal('0.99'))).toBe(1);
    expect(compareNumbers(double(Number.NaN), 1)).toBe(1);
    expect(javaNumberEquals(1, new LongValue(1n, 'Long'))).toBe(false);
    expect(javaNumberEquals(float(0.5), float(0.5))).toBe(true);
  });
});

describe('texts of floating numbers', () => {
  it('follow Double.toString and Float.toString', () => {
    expect(numberToString(double(1))).toBe('1.0');
    expect(numberToString(double(0.001))).toBe('0.001');
    expect(numberToString(double(0.0001))).toBe('1.0E-4');
    expect(numberToString(double(1234567))).toBe('1234567.0');
    expect(numberToString(double(12345678))).toBe('1.2345678E7');
    expect(numberToString(double(-0))).toBe('-0.0');
    expect(numberToString(double(Number.POSITIVE_INFINITY))).toBe('Infinity');
    expect(numberToString(float(0.1))).toBe('0.1');
    expect(numberToString(float(1 / 3))).toBe('0.33333334');
    expect(numberToString(double(Math.fround(0.1)))).toBe('0.10000000149011612');
  });
});

describe('parsing', () => {
  it('reads integers strictly and floats with Java leniency', () => {
    expect(parseIntegral('-12', 'Integer')).toBe(-12);
    expect(() => parseIntegral('12.0', 'Integer')).toThrowError(/For input string/);
    expect(() => parseIntegral('2147483648', 'Integer')).toThrowError();
    expect(parseIntegral('2147483648', 'Long')).toEqual(new LongValue(2147483648n, 'Long'));
    expect(parseFloating(' 3.5d ', 'Double')).toEqual(double(3.5));
    expect(parseFloating('.5', 'Float')).toEqual(float(0.5));
    expect(parseFloating('NaN', 'Double').value).toBeNaN();
    expect(() => parseFloating('', 'Float')).toThrowError();
    expect(() => parseFloating('0x10', 'Float')).toThrowError();
  });

  it('types literals', () => {
    expect(literalValue({ type: 'number', text: '017', form: 'integer', suffix: '' })).toBe(15);
    expect(literalValue({ type: 'number', text: '5', form: 'integer', suffix: 'g' })).toEqual(
      new LongValue(5n, 'BigInteger'),
    );
    expect(literalValue({ type: 'number', text: '2.5', form: 'decimal', suffix: 'f' })).toEqual(
      new FloatingValue(2.5, 'Float'),
    );
  });
});
