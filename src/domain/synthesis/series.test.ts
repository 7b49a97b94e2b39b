import { describe, expect, it } from 'vitest';
import { barsOf, labelledBars, lastDayOf, tickPrecision, timeOf, variablesOf } from './series.ts';

const synthesis = {
  intervals: [
    { from: '2024-06-01T00:00:00', to: '2024-06-04T00:00:00' },
    { from: '2024-06-04T00:00:00', to: '2024-06-07T00:00:00' },
    { from: '2024-06-07T00:00:00', to: '2024-06-10T00:00:00' },
  ],
  variables: { birds: [3, 0, 1], note: [1, 1], alpha: [0, 2, 0] },
};

describe('the synthesis as bars', () => {
  it('orders the variables by the lines they fill, then by name', () => {
    expect(variablesOf(synthesis)).toEqual([
      { key: 'birds', total: 4 },
      { key: 'alpha', total: 2 },
      { key: 'note', total: 2 },
    ]);
  });

  it('gives one bar per interval, zero where a variable has no count, dates read as UTC', () => {
    expect(barsOf(synthesis, 'note')).toEqual([
      { from: Date.UTC(2024, 5, 1), to: Date.UTC(2024, 5, 4), count: 1 },
      { from: Date.UTC(2024, 5, 4), to: Date.UTC(2024, 5, 7), count: 1 },
      { from: Date.UTC(2024, 5, 7), to: Date.UTC(2024, 5, 10), count: 0 },
    ]);
    expect(barsOf(synthesis, 'unknown').map((bar) => bar.count)).toEqual([0, 0, 0]);
    expect(barsOf({ intervals: [], variables: { birds: [12] } }, 'birds')).toEqual([]);
  });

  it('shows the day before the end of a period, never a day before its start', () => {
    expect(new Date(lastDayOf(timeOf('2024-06-01T00:00:00'), timeOf('2024-06-10T00:00:00'))).getUTCDate()).toBe(9);
    expect(lastDayOf(5, 5)).toBe(5);
  });

  it('names an interval as precisely as the whole period needs', () => {
    const day = 86_400_000;
    expect(tickPrecision(day)).toHaveProperty('hour');
    expect(tickPrecision(30 * day)).toMatchObject({ day: 'numeric', month: 'short' });
    expect(tickPrecision(700 * day)).toMatchObject({ month: 'short', year: 'numeric' });
    expect(tickPrecision(4000 * day)).toEqual({ year: 'numeric', timeZone: 'UTC' });
  });

  it('labels every bar when there is room, else one in two or three, always the first', () => {
    expect(labelledBars(10, 800, 70)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(labelledBars(10, 300, 70)).toEqual([0, 3, 6, 9]);
    expect(labelledBars(10, 20, 70)).toEqual([0]);
    expect(labelledBars(0, 300, 70)).toEqual([]);
  });
});
