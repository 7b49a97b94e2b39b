/** What the server counts (the contract's Synthesis has this shape): lines with a value per variable per interval. */
export interface SynthesisCounts {
  intervals: ReadonlyArray<{ from: string; to: string }>;
  variables: Readonly<Record<string, readonly number[]>>;
}

/** One bar of the chart: an interval of the period and the lines with a value of one variable in it. */
export interface SynthesisBar {
  /** Start and end of the interval, in milliseconds (the server's local date-times read as UTC). */
  from: number;
  to: number;
  count: number;
}

/** A variable of the synthesis with how many lines have a value for it over the whole period. */
export interface SynthesisVariable {
  key: string;
  total: number;
}

/** The server sends local date-times without zone: read them as UTC and show them in UTC, so no day shifts. */
export const timeOf = (localDateTime: string) => Date.parse(`${localDateTime}Z`);

/** The variables, the most filled first (then by name), so the default one is the one with the most to read. */
export function variablesOf(synthesis: SynthesisCounts): SynthesisVariable[] {
  return Object.entries(synthesis.variables)
    .map(([key, counts]) => ({ key, total: counts.reduce((sum, count) => sum + count, 0) }))
    .sort((a, b) => b.total - a.total || a.key.localeCompare(b.key));
}

/** The bars of one variable over the intervals (zero where it has no line); none without a time scope. */
export function barsOf(synthesis: SynthesisCounts, variable: string): SynthesisBar[] {
  const counts = synthesis.variables[variable] ?? [];
  return synthesis.intervals.map((interval, i) => ({
    from: timeOf(interval.from),
    to: timeOf(interval.to),
    count: counts[i] ?? 0,
  }));
}

/**
 * The last day a period covers: periods end where the next one starts (a day ends at the next midnight), so the
 * day shown is the one before the end, never before the start.
 */
export const lastDayOf = (from: number, to: number) => Math.max(from, to - 1);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How precisely the axis names an interval's start, by the length of the whole period: hours within two days,
 * days within half a year, months within five years, years beyond.
 */
export function tickPrecision(span: number): Intl.DateTimeFormatOptions {
  if (span <= 2 * DAY) return { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' };
  if (span <= 183 * DAY) return { day: 'numeric', month: 'short', timeZone: 'UTC' };
  if (span <= 5 * 366 * DAY) return { month: 'short', year: 'numeric', timeZone: 'UTC' };
  return { year: 'numeric', timeZone: 'UTC' };
}

/**
 * Which bars get a label on the time axis, for a chart `width` pixels wide: every bar when there is room for
 * `labelWidth` pixels each, else every second, third… bar, always the first.
 */
export function labelledBars(count: number, width: number, labelWidth: number): number[] {
  if (count <= 0) return [];
  const room = Math.max(1, Math.floor(width / labelWidth));
  const step = Math.ceil(count / room);
  return Array.from({ length: count }, (_, i) => i).filter((i) => i % step === 0);
}
