import type { DataEntry, TimeScope } from './model';

/**
 * The date component that gives an entry's rows their period: the deposit's, else the rights'. An entry without one
 * has rows without a period, which rights held for a period reach all the same.
 */
export const timeScopeOf = (entry: DataEntry): TimeScope | null =>
  entry.submission.timeScope ?? entry.authorization?.timeScope ?? null;
