import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchRightsRequests, type RightsRequestList, type RightsRequestQuery } from '../requestsApi';

export const REQUESTS_PER_PAGE = 30;

/** The filters of the list: status (spec §9: open, close, all), requester or comment, one form field containing a text. */
export interface RequestFilters {
  status: 'all' | 'open' | 'close';
  search: string;
  field: string;
  fieldValue: string;
}

/** One page of rights requests under the filters; a change of filter goes back to the first page. */
export function useRightsRequestsList(applicationName: string) {
  const [filters, setFilters] = useState<RequestFilters>({ status: 'all', search: '', field: '', fieldValue: '' });
  const [page, setPage] = useState(1);
  const [list, setList] = useState<RightsRequestList | null>(null);
  const [offlineSince, setOfflineSince] = useState<number | undefined>();
  const [error, setError] = useState<unknown>();
  // Only the answer to the latest question is shown: an earlier one arriving late is dropped.
  const latest = useRef(0);

  const query: RightsRequestQuery = useMemo(
    () => ({
      setted: filters.status === 'all' ? null : filters.status === 'close',
      search: filters.search.trim() || undefined,
      fieldFilters:
        filters.field && filters.fieldValue.trim()
          ? [{ field: filters.field, filter: filters.fieldValue.trim() }]
          : undefined,
      offset: (page - 1) * REQUESTS_PER_PAGE,
      limit: REQUESTS_PER_PAGE,
    }),
    [filters, page],
  );

  const reload = useCallback(async () => {
    const asked = ++latest.current;
    try {
      const kept = await fetchRightsRequests(applicationName, query);
      if (asked !== latest.current) return;
      setList(kept.value);
      setOfflineSince(kept.offlineSince);
      setError(undefined);
    } catch (reason) {
      if (asked === latest.current) setError(reason);
    }
  }, [applicationName, query]);
  useEffect(() => void reload(), [reload]);

  const changeFilters = (change: Partial<RequestFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };

  return { filters, changeFilters, page, setPage, list, offlineSince, error, reload };
}
