import { parseDuration, type Duration } from './duration';
import type { DataEntry, TimeScope } from './model';

/**
 * The date component that gives an entry's rows their period: the deposit's, else the rights'. An entry without one
 * has rows without a period, which rights held for a period reach all the same.
 */
export const timeScopeOf = (entry: DataEntry): TimeScope | null =>
  entry.submission.timeScope ?? entry.authorization?.timeScope ?? null;

/** The length of the period one date of the time scope stands for: its checker's duration, else its pattern's unit. */
export const periodLengthOf = (scope: TimeScope): Duration | null => scope.duration ?? patternUnit(scope.pattern);

export type PatternUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** The smallest unit a date pattern writes (quoted literals left out); a pattern writing none stands for days. */
export function smallestUnitOf(pattern: string): PatternUnit {
  const letters = pattern.replace(/'[^']*'/g, '');
  if (/[sSnNA]/.test(letters)) return 'second';
  if (/m/.test(letters)) return 'minute';
  if (/[HhkK]/.test(letters)) return 'hour';
  if (/[dDEec]/.test(letters)) return 'day';
  if (/[wW]/.test(letters)) return 'week';
  if (/[MLQq]/.test(letters)) return 'month';
  if (/[yuY]/.test(letters)) return 'year';
  return 'day';
}

/** The length of the period a date stands for when the checker gives no duration: the smallest unit its pattern writes. */
function patternUnit(pattern: string): ReturnType<typeof parseDuration> {
  return parseDuration(`1 ${smallestUnitOf(pattern)}`);
}
