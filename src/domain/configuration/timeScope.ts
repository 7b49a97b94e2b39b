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

/** The length of the period a date stands for when the checker gives no duration: the smallest unit its pattern writes. */
function patternUnit(pattern: string): ReturnType<typeof parseDuration> {
  const letters = pattern.replace(/'[^']*'/g, '');
  const unit = /[sSnNA]/.test(letters)
    ? '1 second'
    : /m/.test(letters)
      ? '1 minute'
      : /[HhkK]/.test(letters)
        ? '1 hour'
        : /[dDEec]/.test(letters)
          ? '1 day'
          : /[wW]/.test(letters)
            ? '1 week'
            : /[MLQq]/.test(letters)
              ? '1 month'
              : /[yuY]/.test(letters)
                ? '1 year'
                : '1 day';
  return parseDuration(unit);
}
