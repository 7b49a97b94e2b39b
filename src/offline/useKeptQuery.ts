import { useQuery, type QueryKey } from '@tanstack/react-query';
import { isUnreachable } from './queryCache';

/** What a screen reads: the answer, or the copy kept on the device when the server is out of reach. */
export interface KeptQuery<T> {
  data?: T;
  /** A refusal, or an unreachable server with no kept copy. */
  error?: unknown;
  /** Nothing to show yet. */
  loading: boolean;
  /** Set when `data` is this device's copy because the server is out of reach: when it was fetched. */
  offlineSince?: number;
  /** `data` is the previous answer, shown while this one is read (`keepPreviousWhile`). */
  updating: boolean;
  reload(): void;
}

/**
 * Reads `queryKey` through the one query cache. A refusal (no right, gone) hides what was kept: the server has
 * spoken. Only an unreachable server lets the kept copy stand in, with its date.
 */
export function useKeptQuery<T>(
  queryKey: QueryKey,
  read: (signal: AbortSignal) => Promise<T>,
  options: {
    enabled?: boolean;
    /** Keeps showing the previous answer while this one is read, when its key passes (the same table, another page). */
    keepPreviousWhile?: (previousKey: QueryKey) => boolean;
  } = {},
): KeptQuery<T> {
  const { keepPreviousWhile } = options;
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => read(signal),
    enabled: options.enabled,
    placeholderData: keepPreviousWhile
      ? (previous, previousQuery) => (previousQuery && keepPreviousWhile(previousQuery.queryKey) ? previous : undefined)
      : undefined,
  });
  const reload = () => void query.refetch();
  if (query.error && !(isUnreachable(query.error) && query.data !== undefined))
    return { error: query.error, loading: false, updating: false, reload };
  return {
    data: query.data,
    loading: query.data === undefined && query.isFetching,
    updating: query.isPlaceholderData,
    offlineSince: query.error ? query.dataUpdatedAt : undefined,
    reload,
  };
}
