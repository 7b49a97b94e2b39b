import { lengthOfMonth } from '../configuration/localDateTime';
import type { Checker } from '../configuration/model';
import { smallestUnitOf, type PatternUnit } from '../configuration/timeScope';
import { compileDateChecker } from '../csv/dates';

/**
 * What an interval filter is. The server (as the original) applies usable, equal (one value) and one-ended (an open
 * end) intervals and refuses the others; the filter form applies only usable ones, as the spec says of the screen.
 */
export type IntervalState = 'empty' | 'incomplete' | 'equal' | 'notNumbers' | 'notDates' | 'reversed' | 'usable';

/** States the server answers rows for. */
export const APPLIED_INTERVALS: ReadonlySet<IntervalState> = new Set(['usable', 'equal', 'incomplete']);

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

/** Date patterns compiled once: a query reads each of its values and ends with its column's pattern. */
const compiledPatterns = new Map<string, ReturnType<typeof compileDateChecker>>();
const COMPILED_PATTERNS_KEPT = 100;

function compiled(pattern: string) {
  if (!compiledPatterns.has(pattern)) {
    if (compiledPatterns.size >= COMPILED_PATTERNS_KEPT) compiledPatterns.clear();
    compiledPatterns.set(pattern, compileDateChecker(pattern));
  }
  return compiledPatterns.get(pattern)!;
}

/**
 * One end of a date interval, or a date value, as the beginning of the ISO date-time it names: written in the
 * column's own pattern (as the original reads them, `29/02/2024`; first, so that a pattern of four digits such as
 * `HHmm` is not read as a year) or in ISO (`2024-02-29`, `2024-02-29T23:59:59` or with a space, as deposits take
 * their periods); null when it is neither.
 */
export function dateBound(text: string, pattern: string): string | null {
  const written = compiled(pattern)?.isoOf(text) ?? null;
  if (written !== null) return written.slice(0, ISO_LENGTH[smallestUnitOf(pattern)]);
  return isoBound(text);
}

/** A number as people write it: no hexadecimal, binary or surrounding spaces, which `Number` would read. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Whether a column holds numbers, compared as numbers by filters. */
export const isNumberChecker = (checker: Checker | null | undefined) =>
  checker?.kind === 'integer' || checker?.kind === 'float';

/**
 * One value of a component as it is compared: a number's text when it is one, a date as the ISO beginning it
 * names, any other text as it is; null when a number or date component is given something else.
 */
export function comparedValue(checker: Checker | null | undefined, text: string): string | null {
  if (isNumberChecker(checker)) return DECIMAL.test(text) ? text : null;
  if (checker?.kind === 'date') return dateBound(text, checker.pattern);
  return text;
}

/**
 * Reads an interval filter on a component: numbers compared as numbers, dates as the ISO date-times they name
 * (the upper end covers what it names: `2024-02-29` takes the whole day), other texts in code point order. The
 * server, the offline pages and the filter form read intervals by this rule.
 */
export function readInterval(checker: Checker | null | undefined, from?: string, to?: string): ReadInterval {
  const given = (text?: string) => (text === undefined || text === '' ? undefined : text);
  const [fromText, toText] = [given(from), given(to)];
  if (fromText === undefined && toText === undefined) return { state: 'empty' };
  const low = fromText === undefined ? undefined : comparedValue(checker, fromText);
  const high = toText === undefined ? undefined : comparedValue(checker, toText);
  if (low === null || high === null) return { state: isNumberChecker(checker) ? 'notNumbers' : 'notDates' };
  if (low === undefined || high === undefined) return { state: 'incomplete', from: low, to: high };
  // A date's upper end covers what it names: `2024-02-29 10:00` to `2024-02-29` is the rest of that day.
  const start = checker?.kind === 'date' ? low.slice(0, high.length) : low;
  const order = isNumberChecker(checker) ? Number(low) - Number(high) : start < high ? -1 : start > high ? 1 : 0;
  if (order > 0) return { state: 'reversed' };
  return { state: low === high || (isNumberChecker(checker) && order === 0) ? 'equal' : 'usable', from: low, to: high };
}
