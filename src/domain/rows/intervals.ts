import { lengthOfMonth } from '../configuration/localDateTime';
import type { Checker } from '../configuration/model';
import { smallestUnitOf, type PatternUnit } from '../configuration/timeScope';
import { compileDateChecker } from '../csv/dates';

/**
 * What an interval filter does: filters when usable; nothing when empty, incomplete or reversed (the spec: an
 * interval applies only when from is less than to, otherwise it is ignored); ends that are no numbers or no dates
 * are refused by the server (ignoring them read or exported every row) and explained by the form.
 */
export type IntervalState = 'empty' | 'incomplete' | 'notNumbers' | 'notDates' | 'reversed' | 'usable';

/** An interval as it is compared: date ends as the beginning of the stored ISO date-time they name. */
export interface ReadInterval {
  state: IntervalState;
  from?: string;
  to?: string;
}

const ISO_BOUND = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2}))?)?)?)?)?$/;

/** The ISO characters a date written in a pattern stands for: a day's date covers its whole day, and so on. */
const ISO_LENGTH: Record<PatternUnit, number> = {
  second: 19,
  minute: 16,
  hour: 13,
  day: 10,
  week: 10,
  month: 7,
  year: 4,
};

function isoBound(text: string): string | null {
  const match = ISO_BOUND.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const within = (value: string | undefined, low: number, high: number) =>
    value === undefined || (Number(value) >= low && Number(value) <= high);
  if (!within(month, 1, 12) || !within(hour, 0, 23)) return null;
  if (day !== undefined && !within(day, 1, lengthOfMonth(Number(year), Number(month)))) return null;
  if (!within(minute, 0, 59) || !within(second, 0, 59)) return null;
  return text.replace(' ', 'T');
}

/**
 * One end of a date interval as the beginning of the ISO date-time it names: written in ISO (`2024-02-29`,
 * `2024-02-29T23:59:59` or with a space, as deposits take their periods) or in the column's own pattern (as the
 * original reads them, `29/02/2024`); null when it is neither.
 */
export function dateBound(text: string, pattern: string): string | null {
  const iso = isoBound(text);
  if (iso !== null) return iso;
  const written = compileDateChecker(pattern)?.isoOf(text) ?? null;
  return written === null ? null : written.slice(0, ISO_LENGTH[smallestUnitOf(pattern)]);
}

/**
 * Reads an interval filter on a component: numbers compared as numbers, dates as the ISO date-times they name
 * (the upper end covers what it names: `2024-02-29` takes the whole day), other texts in code point order. The
 * server, the offline pages and the filter form read intervals by this rule.
 */
export function readInterval(checker: Checker | null | undefined, from?: string, to?: string): ReadInterval {
  const hasFrom = from !== undefined && from !== '';
  const hasTo = to !== undefined && to !== '';
  if (!hasFrom && !hasTo) return { state: 'empty' };
  if (!hasFrom || !hasTo) return { state: 'incomplete' };
  if (checker?.kind === 'integer' || checker?.kind === 'float') {
    const low = Number(from);
    const high = Number(to);
    if (!Number.isFinite(low) || !Number.isFinite(high)) return { state: 'notNumbers' };
    return low < high ? { state: 'usable', from, to } : { state: 'reversed' };
  }
  if (checker?.kind === 'date') {
    const low = dateBound(from, checker.pattern);
    const high = dateBound(to, checker.pattern);
    if (low === null || high === null) return { state: 'notDates' };
    return low < high ? { state: 'usable', from: low, to: high } : { state: 'reversed' };
  }
  return from < to ? { state: 'usable', from, to } : { state: 'reversed' };
}
