import { describe, expect, it } from 'vitest';
import { toIsoLocalDateTime } from '../configuration/localDateTime';
import { compileDateChecker } from './dates';

const checker = (pattern: string) => {
  const compiled = compileDateChecker(pattern);
  if (!compiled) throw new Error(`bad pattern ${pattern}`);
  return compiled;
};

const pad = (value: number) => String(value).padStart(2, '0');

describe('date checks of the CSV engine', () => {
  it('give on the fast path what the full parser gives, impossible days refused by both', () => {
    const days = checker('dd/MM/yyyy');
    for (const year of [1900, 2000, 2020, 2021]) {
      for (let month = 1; month <= 12; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const text = `${pad(day)}/${pad(month)}/${year}`;
          const parsed = days.parse(text);
          expect(days.isoOf(text), text).toBe(parsed && toIsoLocalDateTime(parsed));
        }
      }
    }
    expect(days.isoOf('31/02/2020')).toBeNull();
    expect(days.isoOf('29/02/2021')).toBeNull();
    expect(days.isoOf('29/02/2020')).toBe('2020-02-29T00:00:00');
  });

  it('refuse 24:00 and 31/04 with a time on both paths', () => {
    const minutes = checker('dd/MM/yyyy HH:mm');
    for (const text of ['31/12/2020 24:00', '31/04/2020 10:00', '29/02/1900 00:00']) {
      expect(minutes.isoOf(text), text).toBeNull();
      expect(minutes.parse(text), text).toBeNull();
    }
    expect(checker('HH:mm:ss').isoOf('24:00:00')).toBeNull();
    expect(checker('MM/yyyy').isoOf('02/2021')).toBe('2021-02-01T00:00:00');
  });

  it('compiles no checker for a pattern past the longest, as a model stored before that bound may hold', () => {
    // Parsing one value with this pattern took seconds: every value of its column is now invalid at once.
    expect(compileDateChecker('ddMM'.repeat(25_000))).toBeNull();
    expect(compileDateChecker('y'.repeat(100_000))).toBeNull();
  });
});
