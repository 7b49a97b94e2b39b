import { useEffect, useState } from 'react';
import type { DataEntry } from '@/domain/configuration/model';
import { filterRows } from '@/domain/rows/filterRows';
import type { RowQuery } from '@/domain/rows/rowQuery';
import { ApiError } from '@/lib/api/apiError';
import { cachedReferenceRows } from '@/offline/referenceCache';
import type { ReferencePage, RowView } from '@/contract/rows';
import { fetchEntryPage } from '../api';

export interface EntryRowsState {
  page?: Pick<ReferencePage, 'referenceValues' | 'totalRows'>;
  loading: boolean;
  error?: unknown;
  /** Answered from the rows kept on the device, fetched at that time. */
  offlineSince?: number;
}

/**
 * One page of rows of a reference or a data type for a query: from the server, or — for a reference, when the
 * server cannot be reached — computed from the rows kept on the device with the same filters.
 */
export function useEntryRows(applicationName: string, entry: DataEntry, query: RowQuery, generation: number): EntryRowsState {
  const [state, setState] = useState<EntryRowsState>({ loading: true });
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fetchEntryPage(applicationName, entry, query)
      .then((page) => live && setState({ page, loading: false }))
      .catch(async (error: unknown) => {
        if (!(error instanceof ApiError && error.isNetworkError) || entry.kind !== 'reference') return live && setState({ loading: false, error });
        const cached = await cachedReferenceRows(applicationName, entry.name);
        if (!live) return;
        if (!cached) return setState({ loading: false, error });
        const targets = new Map<string, Map<string, string>>();
        const hierarchicalKeysOf = (reference: string, naturalKeys: string[]) => {
          const known = targets.get(reference);
          return new Set(naturalKeys.map((k) => known?.get(k)).filter((k): k is string => k !== undefined));
        };
        for (const component of entry.components) {
          if (component.checker?.kind !== 'reference' || targets.has(component.checker.reference)) continue;
          const rows = (await cachedReferenceRows(applicationName, component.checker.reference))?.rows ?? [];
          targets.set(component.checker.reference, new Map(rows.map((r) => [r.naturalKey, r.hierarchicalKey])));
        }
        const { rows, totalRows } = filterRows(entry, cached.rows, query, hierarchicalKeysOf);
        const referenceValues = rows.map((row) => ({ ...row, __display_default: row.naturalKey }) as RowView);
        setState({ page: { referenceValues, totalRows }, loading: false, offlineSince: cached.fetchedAt });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is compared through its text (key): a new object with the same content is the same query
  }, [applicationName, entry, key, generation]);
  return state;
}
