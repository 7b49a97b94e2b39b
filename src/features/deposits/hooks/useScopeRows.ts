import { useQuery } from '@tanstack/react-query';
import type { KeptRow } from '@/domain/rows/filterRows';
import { isUnreachable } from '@/offline/queryCache';
import { cachedReferenceRows, keepReference } from '@/offline/referenceCache';

interface ScopeRows {
  rows: Record<string, KeptRow[]>;
  missing: string[];
}

/** Downloads (and keeps) each reference; offline, reads the copy of it the device keeps, or names it missing. */
async function readScopeRows(applicationName: string, references: readonly string[]): Promise<ScopeRows> {
  const rows: Record<string, KeptRow[]> = {};
  const missing: string[] = [];
  for (const reference of references) {
    try {
      rows[reference] = await keepReference(applicationName, reference);
    } catch (error) {
      const kept = isUnreachable(error) ? await cachedReferenceRows(applicationName, reference) : undefined;
      if (kept) rows[reference] = kept.rows;
      else missing.push(reference);
    }
  }
  return { rows, missing };
}

const NO_ROWS: ScopeRows = { rows: {}, missing: [] };

/**
 * Rows of the references a dataset is scoped by, downloaded (and kept) or, offline, read from the device. Read
 * through the query cache (a page opened again shows them at once), but not kept by it: the device keeps whole
 * tables in its own store already.
 */
export function useScopeRows(
  applicationName: string,
  references: string[],
): { rows: Record<string, KeptRow[]>; missing: string[]; ready: boolean } {
  const query = useQuery({
    queryKey: ['application', applicationName, 'scopeRows', references],
    queryFn: () => readScopeRows(applicationName, references),
    persister: undefined,
  });
  return { ...(query.data ?? NO_ROWS), ready: query.data !== undefined };
}
