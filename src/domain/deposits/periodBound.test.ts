import { describe, expect, it } from 'vitest';
import { readPeriodBound } from './periodBound';

describe('deposit period bounds', () => {
  it('read a day, with or without a time', () => {
    expect(readPeriodBound('2024-06-01')).toBe('2024-06-01T00:00:00');
    expect(readPeriodBound(' 2024-06-30 23:59:59 ')).toBe('2024-06-30T23:59:59');
    expect(readPeriodBound('2024-06-30T10:30')).toBe('2024-06-30T10:30:00');
    expect(readPeriodBound('2024-02-29')).toBe('2024-02-29T00:00:00');
    expect(readPeriodBound('0000-02-29')).toBe('0000-02-29T00:00:00');
  });

  it('refuse days and times that do not exist, and anything after them', () => {
    for (const text of [
      '2023-02-29',
      '2024-02-30',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '2024-06-00',
      '0100-02-29',
      '2024-06-01 24:00',
      '2024-06-01 10:60',
      '2024-06-01 10:00:60',
      '2024-06-01T00:00:00.000Z',
      '2024-06-01 garbage',
      '01/06/2024',
      '',
    ]) {
      expect(readPeriodBound(text), text).toBeNull();
    }
  });
});
