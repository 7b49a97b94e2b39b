import type { Version } from './api';

export interface PeriodGroup {
  key: string;
  from: string | null;
  to: string | null;
  /** Oldest first, numbered from 1. */
  versions: Array<Version & { number: number }>;
  published?: Version & { number: number };
}

/** Versions of one scope grouped by period, periods in time order, versions numbered in deposit order. */
export function groupByPeriod(versions: readonly Version[]): PeriodGroup[] {
  const groups = new Map<string, PeriodGroup>();
  const oldestFirst = [...versions].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const version of oldestFirst) {
    const key = `${version.from ?? ''}|${version.to ?? ''}`;
    const group = groups.get(key) ?? { key, from: version.from, to: version.to, versions: [] };
    const numbered = { ...version, number: group.versions.length + 1 };
    group.versions.push(numbered);
    if (version.published) group.published = numbered;
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => (a.from ?? '').localeCompare(b.from ?? '') || (a.to ?? '').localeCompare(b.to ?? ''),
  );
}

/** Size in kB as the versions table shows it (size / 1000). */
export const kiloBytes = (size: number) => Math.round(size / 100) / 10;
