import { useEffect, useState } from 'react';
import type { KeptRow } from '@/domain/rows/filterRows';
import { ApiError } from '@/lib/api/apiError';
import { downloadReferenceRows } from '@/lib/api/referenceRows';
import { cacheReferenceRows, cachedReferenceRows } from '@/offline/referenceCache';

/** Rows of the references a dataset is scoped by, downloaded (and kept) or, offline, read from the device. */
export function useScopeRows(
  applicationName: string,
  references: string[],
): { rows: Record<string, KeptRow[]>; missing: string[]; ready: boolean } {
  const [state, setState] = useState<{ rows: Record<string, KeptRow[]>; missing: string[]; ready: boolean }>({
    rows: {},
    missing: [],
    ready: false,
  });
  const key = references.join(',');
  useEffect(() => {
    let live = true;
    void (async () => {
      const rows: Record<string, KeptRow[]> = {};
      const missing: string[] = [];
      for (const reference of references) {
        try {
          rows[reference] = await downloadReferenceRows(applicationName, reference);
          await cacheReferenceRows(applicationName, reference, rows[reference]);
        } catch (error) {
          const kept =
            error instanceof ApiError && error.isNetworkError
              ? await cachedReferenceRows(applicationName, reference)
              : undefined;
          if (kept) rows[reference] = kept.rows;
          else missing.push(reference);
        }
      }
      if (live) setState({ rows, missing, ready: true });
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the list of references is compared through its text (key)
  }, [applicationName, key]);
  return state;
}
