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

export function parseDuration(text: string): Duration | null {
  if (!WHOLE.test(text)) return null;
  const parts: DurationPart[] = [];
  for (const match of text.matchAll(PART))
    parts.push({ amount: Number(match[1]), unit: match[2].toLowerCase() as DurationUnit });
  return { source: text, parts };
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
