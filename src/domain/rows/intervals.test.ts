import { describe, expect, it } from 'vitest';
import type { Checker } from '../configuration/model';
import { APPLIED_INTERVALS, comparedValue, dateBound, readInterval } from './intervals';

const date = (pattern: string): Checker => ({
  kind: 'date',
  pattern,
  min: null,
  max: null,
  duration: null,
  multiplicity: 'ONE',
});
const number: Checker = { kind: 'float', multiplicity: 'ONE' } as Checker;

describe('an interval filter', () => {
  it('on numbers compares numbers: from < to usable, equal ends one value, reversed ends told', () => {
    expect(readInterval(number, '2', '10')).toEqual({ state: 'usable', from: '2', to: '10' });
    // '10' < '2' as texts.
    expect(readInterval(number, '10', '2').state).toBe('reversed');
    expect(readInterval(number, '5', '5.0')).toEqual({ state: 'equal', from: '5', to: '5.0' });
    expect(readInterval(number, 'x', '5').state).toBe('notNumbers');
    expect(readInterval(number, ' ', '5').state).toBe('notNumbers');
  });

  it('keeps the end of a one-ended interval, the other open', () => {
    expect(readInterval(number, '2', '')).toEqual({ state: 'incomplete', from: '2', to: undefined });
    expect(readInterval(date('dd/MM/yyyy'), undefined, '31/01/2024')).toEqual({
      state: 'incomplete',
      from: undefined,
      to: '2024-01-31',
    });
    expect(readInterval(number, 'x', undefined).state).toBe('notNumbers');
    expect(readInterval(number, undefined, '').state).toBe('empty');
    for (const state of ['usable', 'equal', 'incomplete'] as const) expect(APPLIED_INTERVALS.has(state)).toBe(true);
    for (const state of ['empty', 'reversed', 'notNumbers', 'notDates'] as const)
      expect(APPLIED_INTERVALS.has(state)).toBe(false);
  });

  it('on dates reads ISO with a T or a space, and the column’s own pattern, as the ISO beginning they name', () => {
    const day = date('dd/MM/yyyy');
    expect(readInterval(day, '2024-02-01 00:00:00', '2024-02-29 23:59:59')).toEqual({
      state: 'usable',
      from: '2024-02-01T00:00:00',
      to: '2024-02-29T23:59:59',
    });
    expect(readInterval(day, '31/01/2024', '01/02/2024')).toEqual({
      state: 'usable',
      from: '2024-01-31',
      to: '2024-02-01',
    });
    expect(readInterval(day, '2024-02-29', '2024-02-29T23:59:59').state).toBe('usable');
    expect(readInterval(day, '2024-02-29', '29/02/2024').state).toBe('equal');
    // An upper end covers what it names: the rest of that day, the rest of that month.
    expect(readInterval(day, '2024-02-29 10:00', '2024-02-29').state).toBe('usable');
    expect(readInterval(day, '2024-02-29', '2024-02').state).toBe('usable');
    expect(readInterval(day, '2024-03-01', '2024-02').state).toBe('reversed');
    expect(readInterval(day, '2024-03-01', '2024-02-29').state).toBe('reversed');
    expect(readInterval(day, 'yesterday', '2024-02-29').state).toBe('notDates');
    expect(readInterval(day, '31/02/2024', '2024-02-29').state).toBe('notDates');
  });

  it('writes a date in a pattern as the ISO beginning of the unit the pattern counts in', () => {
    expect(dateBound('02/2024', 'MM/yyyy')).toBe('2024-02');
    expect(dateBound('2024', 'yyyy')).toBe('2024');
    expect(dateBound('29/02/2024 10:30', 'dd/MM/yyyy HH:mm')).toBe('2024-02-29T10:30');
    expect(dateBound('20240229', 'yyyyMMdd')).toBe('2024-02-29');
    // In the column's pattern first: four digits of HHmm are a time, not a year.
    expect(dateBound('1230', 'HHmm')).toBe('1970-01-01T12:30');
    expect(dateBound('2024-02-29', 'HHmm')).toBe('2024-02-29');
    expect(dateBound('2024-13-01', 'dd/MM/yyyy')).toBeNull();
    expect(dateBound('2023-02-29', 'dd/MM/yyyy')).toBeNull();
    expect(dateBound('2024-02-29 24:00:00', 'dd/MM/yyyy')).toBeNull();
  });

  it('on texts compares code points', () => {
    expect(readInterval(null, 'a', 'b').state).toBe('usable');
    expect(readInterval(null, 'a', 'a').state).toBe('equal');
    expect(readInterval(null, 'b', 'a').state).toBe('reversed');
    expect(readInterval(null, 'b', 'a').state).toBe('reversed');
  });

  it('reads a filter value as the column compares it, or not at all', () => {
    expect(comparedValue(number, '12.50')).toBe('12.50');
    expect(comparedValue(number, 'twelve')).toBeNull();
    for (const written of ['0x10', '0b1', ' 5 ', '', '1e']) expect(comparedValue(number, written), written).toBeNull();
    for (const written of ['-5', '+.5', '1e3', '12.']) expect(comparedValue(number, written), written).toBe(written);
    expect(comparedValue(date('dd/MM/yyyy'), '15/06/2019')).toBe('2019-06-15');
    expect(comparedValue(date('dd/MM/yyyy'), '2019-06-15')).toBe('2019-06-15');
    expect(comparedValue(date('dd/MM/yyyy'), 'June')).toBeNull();
    expect(comparedValue(null, 'June')).toBe('June');
  });
});
