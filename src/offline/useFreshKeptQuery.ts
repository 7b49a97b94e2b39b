import { useQuery, type QueryKey } from '@tanstack/react-query';
import { keptRead } from './queryCache';
import type { KeptQuery } from './useKeptQuery';

/**
 * Reads `queryKey` for what is filled once from it (a form's starting values): the server's answer of this visit, or,
 * when the server is out of reach, the copy kept under `queryKey` with its date. Unlike useKeptQuery, a copy kept
 * from before is never shown while the server is being asked, so a form never starts from it when the server
 * answers. The answer is kept under `queryKey` itself, where the screens and "Make available offline" find it.
 */
export function useFreshKeptQuery<T>(
  queryKey: QueryKey,
  read: (signal: AbortSignal) => Promise<T>,
  options: { enabled?: boolean } = {},
): KeptQuery<T> {
  const query = useQuery({
    queryKey: [...queryKey, 'freshRead'],
    queryFn: ({ signal }) => keptRead<T>(queryKey, () => read(signal)),
    enabled: options.enabled,
    // Kept by keptRead under queryKey; this query lasts as long as the screen reading it.
    persister: undefined,
    gcTime: 0,
  });
  const reload = () => void query.refetch();
  if (query.error) return { error: query.error, loading: false, updating: false, reload };
  return {
    data: query.data?.value,
    loading: query.data === undefined && query.isFetching,
    updating: false,
    offlineSince: query.data?.offlineSince,
    reload,
  };
}
