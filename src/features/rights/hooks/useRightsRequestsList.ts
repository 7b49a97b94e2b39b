import { useMemo, useState } from 'react';
import type { RightsRequestQuery } from '@/contract/rightsRequests';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { rightsRequestsRead } from '../queries';

export const REQUESTS_PER_PAGE = 30;

/** The filters of the list: status (spec §9: open, close, all), requester or comment, one form field containing a text. */
export interface RequestFilters {
  status: 'all' | 'open' | 'close';
  search: string;
  field: string;
  fieldValue: string;
}

/** The filters the list opens with. */
export const INITIAL_REQUEST_FILTERS: RequestFilters = { status: 'all', search: '', field: '', fieldValue: '' };

/** What the server is asked for a page of the list under the filters. */
export function requestsQueryOf(filters: RequestFilters, page: number): RightsRequestQuery {
  return {
    setted: filters.status === 'all' ? null : filters.status === 'close',
    search: filters.search.trim() || undefined,
    fieldFilters:
      filters.field && filters.fieldValue.trim()
        ? [{ field: filters.field, filter: filters.fieldValue.trim() }]
        : undefined,
    offset: (page - 1) * REQUESTS_PER_PAGE,
    limit: REQUESTS_PER_PAGE,
  };
}

/** The read of the first page as the list opens, which "Make available offline" keeps. */
export const firstRequestsPageRead = (applicationName: string) =>
  rightsRequestsRead(applicationName, requestsQueryOf(INITIAL_REQUEST_FILTERS, 1));

/**
 * One page of rights requests under the filters; a change of filter goes back to the first page. Every page seen
 * opens offline as it was, with when it was fetched.
 */
export function useRightsRequestsList(applicationName: string) {
  const [filters, setFilters] = useState<RequestFilters>(INITIAL_REQUEST_FILTERS);
  const [page, setPage] = useState(1);
  const query = useMemo(() => requestsQueryOf(filters, page), [filters, page]);
  const read = rightsRequestsRead(applicationName, query);
  const { data, offlineSince, error, reload } = useKeptQuery(read.queryKey, read.read);

  const changeFilters = (change: Partial<RequestFilters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };

  return { filters, changeFilters, page, setPage, list: data ?? null, offlineSince, error, reload };
}
