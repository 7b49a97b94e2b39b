import { useQuery } from '@tanstack/react-query';
import { referenceCopies, type ReferenceCopies } from '@/offline/referenceCopies';

const NO_ROWS: ReferenceCopies = { rows: {}, missing: [], parts: [] };

/**
 * Rows of the references a dataset is scoped by and its file points to, downloaded (and kept) or, offline, read
 * from the device. Read through the query cache (a page opened again shows them at once), but not kept by it: the
 * device keeps whole tables in its own store already.
 */
export function useScopeRows(applicationName: string, references: string[]): ReferenceCopies & { ready: boolean } {
  const query = useQuery({
    queryKey: ['application', applicationName, 'scopeRows', references],
    queryFn: () => referenceCopies(applicationName, references),
    persister: undefined,
  });
  return { ...(query.data ?? NO_ROWS), ready: query.data !== undefined };
}
