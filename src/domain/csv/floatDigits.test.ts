/** Floats that would be stored as another number are refused; the written precision alone is not a loss. */
import { describe, expect, it } from 'vitest';
import { parseFloatText } from './checkers';
import { decimalForm, losesDigits } from './floatDigits';
import { references, validate } from './testKit';

const refs = references();

function loses(text: string): boolean {
  const value = parseFloatText(text);
  expect(value, text).not.toBeNull();
  return losesDigits(text, value!);
}

describe('float digits', () => {
  it('writes a decimal by its value, whatever its writing', () => {
    expect(decimalForm('0.10')).toBe('1e0');
    expect(decimalForm('00012.500')).toBe('125e2');
    expect(decimalForm('-0.0012e+3')).toBe('12e1');
    expect(decimalForm('1e+21')).toBe('1e22');
    expect(decimalForm('7.0d')).toBe('7e1');
    expect(decimalForm('-0')).toBe('0');
    expect(decimalForm('0.000e5')).toBe('0');
  });

  it('accepts numbers stored as their decimal value, whatever their writing', () => {
    for (const text of [
      '0.1',
      '0.10',
      '1.0',
      '7.0',
      '0010',
      '1e3',
      '-0',
      '0',
      '+5',
      '.5',
      '5.',
      '1.5f',
      '0.30000000000000004',
      '123456789012345',
      '999999999999999',
      '9007199254740992',
      '123456789012345680000',
      '1e23',
      '1.7976931348623157e308',
      '2.2250738585072014e-308',
      '5e-324',
      '-12.345678901234567',
      // More than 15 digits, zeros only beyond: the slow path compares values, not writings.
      '0.100000000000000000000',
      '12345678901234568000000',
      '0.00000000000000000000123',
    ])
      expect(loses(text), text).toBe(false);
  });

  it('refuses digits a double cannot keep, and numbers below the smallest double', () => {
    for (const text of [
      '9007199254740993',
      '3.14159265358979323846',
      '0.1000000000000000000001',
      '123456789012345678',
      '12345678901234567000000',
      '1.23456789e-320',
      '4.9e-324',
      '1e-400',
      '-1e-400',
    ])
      expect(loses(text), text).toBe(true);
  });

  it('refuses the line with the value and what it would become, a decimal comma read as a point (ONE)', () => {
    const header = 'zone;code;depth\n';
    const { report, rows } = validate(
      'stations',
      `${header}Nord;S1;3.14159265358979323846\nNord;S2;12,50\nNord;S3;0,30000000000000004\nNord;S4;9,0071992547409931\n`,
      { references: refs },
    );
    expect(report.errors.map((error) => [error.lineNumber, error.code, error.params])).toEqual([
      [2, 'floatPrecisionLost', { component: 'depth', value: '3.14159265358979323846', stored: '3.141592653589793' }],
      [5, 'floatPrecisionLost', { component: 'depth', value: '9,0071992547409931', stored: '9.007199254740993' }],
    ]);
    // The refused lines give no row (and the server stores nothing of a file with errors).
    expect(rows.map((row) => row.lineNumber)).toEqual([3, 4]);
    const accepted = validate('stations', `${header}Nord;S2;12,50\nNord;S3;0,30000000000000004\n`, {
      references: refs,
    });
    expect(accepted.report.errorCount).toBe(0);
    expect(accepted.rows.map((row) => row.values.depth)).toEqual([12.5, 0.30000000000000004]);
  });

  it('checks a file of 100,000 float cells, most of them on the quick path', () => {
    const lines = Array.from({ length: 100_000 }, (_, index) => `Nord;S${index};${(index % 997) / 10}`);
    const { report, rows } = validate('stations', `zone;code;depth\n${lines.join('\n')}\n`, { references: refs });
    expect(report.errorCount).toBe(0);
    expect(rows).toHaveLength(100_000);
  });
});
