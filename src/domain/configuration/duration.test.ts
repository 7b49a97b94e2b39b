import { describe, expect, it } from 'vitest';
import { addDuration, DURATION_LIMITS, parseDuration, spansTooLong } from './duration';
import { toIsoLocalDateTime, type LocalDateTime } from './localDateTime';

const at = (year: number, month: number, day: number, hour = 0): LocalDateTime => ({
  year,
  month,
  day,
  hour,
  minute: 0,
  second: 0,
  nano: 0,
});

describe('OA_duration', () => {
  it('accepts "<n> <unit>[s]" repeated, case ignored', () => {
    expect(parseDuration('1 month')).toEqual({ source: '1 month', parts: [{ amount: 1, unit: 'month' }] });
    expect(parseDuration('1 day 12 hours')?.parts).toEqual([
      { amount: 1, unit: 'day' },
      { amount: 12, unit: 'hour' },
    ]);
    expect(parseDuration('30 MINUTES')?.parts).toEqual([{ amount: 30, unit: 'minute' }]);
    for (const bad of ['1 Yearss', '2days', 'month', '1 fortnight', '', '-1 day'])
      expect(parseDuration(bad)).toBeNull();
  });

  it('gives the end of the period a value stands for, months clamped as in Java', () => {
    expect(toIsoLocalDateTime(addDuration(at(2004, 6, 1), parseDuration('1 month')!))).toBe('2004-07-01T00:00:00');
    expect(toIsoLocalDateTime(addDuration(at(2020, 1, 31), parseDuration('1 month')!))).toBe('2020-02-29T00:00:00');
    expect(toIsoLocalDateTime(addDuration(at(2020, 12, 31, 12), parseDuration('1 day 12 hours')!))).toBe(
      '2021-01-02T00:00:00',
    );
    expect(toIsoLocalDateTime(addDuration(at(2019, 2, 28), parseDuration('1 year 1 week')!))).toBe(
      '2020-03-06T00:00:00',
    );
  });

  it('bounds what it reads: a text past the longest is no duration, however it is written', () => {
    const repeated = Array.from({ length: 30 }, () => '0 days').join(' ');
    expect(repeated.length).toBeGreaterThan(DURATION_LIMITS.maxLength);
    expect(parseDuration(repeated)).toBeNull();
    expect(parseDuration(repeated.slice(0, 83))?.parts).toHaveLength(12);
  });

  it('tells a span past the bound, the units of a year counted alike', () => {
    const { maxYears } = DURATION_LIMITS;
    for (const within of [`${maxYears} years`, `${maxYears * 12} months`, `${maxYears - 1} years 52 weeks`, '1 day'])
      expect(spansTooLong(parseDuration(within)!), within).toBe(false);
    for (const past of [
      `${maxYears + 1} years`,
      '100000000000000 days',
      `${maxYears} years 1 day`,
      `${'9'.repeat(90)} s`,
    ])
      expect(parseDuration(past) === null || spansTooLong(parseDuration(past)!), past).toBe(true);
  });
});
