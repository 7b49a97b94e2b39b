import { plusMonths, plusSeconds, type LocalDateTime } from './localDateTime';

/**
 * `OA_duration` of a date checker: the length of the period one date value stands for (`MM/yyyy` + `1 month`).
 * The syntax is the original's: `<n> <unit>[s]` repeated with spaces, case ignored (`1 day 12 hours`).
 */
export type DurationUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

export interface DurationPart {
  amount: number;
  unit: DurationUnit;
}

export interface Duration {
  /** As written in the configuration. */
  source: string;
  parts: DurationPart[];
}

const WHOLE =
  /^\s*\d+ +(second|minute|hour|day|week|month|year)s?(\s+\d+ +(second|minute|hour|day|week|month|year)s?)*\s*$/i;
const PART = /(\d+) +(second|minute|hour|day|week|month|year)s?/gi;

/**
 * Bounds of a duration. The text: a real one names each unit once at most, and a longer one would cost every date
 * of an upload a part at a time. The span: long enough for any period a date may stand for, short enough that
 * adding it keeps every second exact (numbers past 2^53 lose units) and years within Java's.
 */
export const DURATION_LIMITS = { maxLength: 100, maxYears: 10_000 } as const;

/** A text past `DURATION_LIMITS.maxLength` is no duration either: a model stored before the bound is read as such. */
export function parseDuration(text: string): Duration | null {
  if (text.length > DURATION_LIMITS.maxLength || !WHOLE.test(text)) return null;
  const parts: DurationPart[] = [];
  for (const match of text.matchAll(PART))
    parts.push({ amount: Number(match[1]), unit: match[2].toLowerCase() as DurationUnit });
  return { source: text, parts };
}

/** Whether the duration spans more than `DURATION_LIMITS.maxYears` years (of 366 days, a month being a twelfth). */
export function spansTooLong(duration: Duration): boolean {
  let days = 0;
  for (const part of duration.parts) {
    days += part.amount * (part.unit === 'year' ? 366 : part.unit === 'month' ? 366 / 12 : SECONDS[part.unit] / 86_400);
  }
  return !(days <= DURATION_LIMITS.maxYears * 366);
}

const SECONDS: Record<Exclude<DurationUnit, 'month' | 'year'>, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 604_800,
};

/** The end of the period that starts at `start` (exclusive), calendar units first as Java's `Period` then `Duration`. */
export function addDuration(start: LocalDateTime, duration: Duration): LocalDateTime {
  let months = 0;
  let seconds = 0;
  for (const part of duration.parts) {
    if (part.unit === 'year') months += 12 * part.amount;
    else if (part.unit === 'month') months += part.amount;
    else seconds += SECONDS[part.unit] * part.amount;
  }
  return plusSeconds(plusMonths(start, months), seconds);
}
