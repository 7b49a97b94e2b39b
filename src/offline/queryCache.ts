import { QueryClient, hashKey, type QueryKey } from '@tanstack/react-query';
import {
  PERSISTER_KEY_PREFIX,
  experimental_createQueryPersister,
  type AsyncStorage,
  type PersistedQuery,
} from '@tanstack/query-persist-client-core';
import { CONTRACT_VERSION } from '@/contract/version';
import { ApiError } from '@/lib/api/apiError';
import { getCurrentUser } from './currentUser';
import { offlineDb, type KeptQuery } from './db';
import { withoutDeviceData } from './deviceData';
import { currentKeptRead } from './keptReadMigrations';

/**
 * The one read cache: every answer a screen reads is a query of this client, and each query is kept on the device
 * (IndexedDB), so a screen seen once opens offline with what it showed then and when.
 */

/** How long a read stays on the device without being seen again. */
export const KEPT_READS_MAX_AGE_MS = 90 * 24 * 3600 * 1000;

/** Reads are kept per user: on a shared tablet, one person's copies are never shown to another. */
const storageKeyOf = (key: string) => `${getCurrentUser()?.login ?? ''}\u0000${key}`;

/** A kept read in the shape the running version reads (see keptReadMigrations), or undefined. */
const readable = (row: KeptQuery | undefined) => (row ? currentKeptRead(row.value, row.version) : undefined);

/** Without the device's database (it could not open), reads go on from the server alone, keeping nothing. */
const keptReadsStorage: AsyncStorage<PersistedQuery> = {
  getItem: (key) => offlineDb.queries.get(storageKeyOf(key)).then(readable).catch(withoutDeviceData(undefined)),
  setItem: (key, value) =>
    offlineDb.queries
      .put({ key: storageKeyOf(key), value, version: CONTRACT_VERSION })
      .catch(withoutDeviceData(undefined)),
  removeItem: (key) => offlineDb.queries.delete(storageKeyOf(key)).catch(withoutDeviceData(undefined)),
  entries: async () => {
    const prefix = storageKeyOf('');
    const rows = await offlineDb.queries.where('key').startsWith(prefix).toArray().catch(withoutDeviceData([]));
    return rows.flatMap((row) => {
      const value = readable(row);
      return value ? [[row.key.slice(prefix.length), value] as [string, PersistedQuery]] : [];
    });
  },
};

export const keptReads = experimental_createQueryPersister<PersistedQuery>({
  storage: keptReadsStorage,
  maxAge: KEPT_READS_MAX_AGE_MS,
  // IndexedDB stores objects as they are; the failure of the last fetch is not worth keeping (nor cloneable).
  serialize: (persisted) => ({
    ...persisted,
    state: { ...persisted.state, error: null, fetchFailureReason: null, fetchMeta: null },
  }),
  deserialize: (stored) => stored,
});

/** Where the cache keeps the application list. */
export const APPLICATION_LIST_KEY = ['applications'] as const;

/** A failure that a kept copy may stand in for: the server could not be reached. */
export const isUnreachable = (error: unknown) => error instanceof ApiError && error.isNetworkError;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The server's reachability is learnt by asking it (see lib/connectivity): a query runs even when the browser
      // says it is offline, and its failure lets the kept copy show.
      networkMode: 'always',
      retry: false,
      refetchOnWindowFocus: false,
      gcTime: 30 * 60 * 1000,
      persister: keptReads.persisterFn,
    },
    mutations: { networkMode: 'always' },
  },
});

/** A read, or the copy this device kept of it (with when it was fetched) when the server is out of reach. */
export interface Kept<T> {
  value: T;
  offlineSince?: number;
}

/**
 * A read through the cache: where it is kept and how it is asked for. A screen (useKeptQuery) and "Make available
 * offline" (readsStep) given the same one keep and find the same copy.
 */
export interface CachedRead<T> {
  queryKey: QueryKey;
  read(signal?: AbortSignal): Promise<T>;
}

/** Asks the server for a read and keeps its answer on the device, where the screen reading it will find it. */
export async function keepFresh<T>({ queryKey, read }: CachedRead<T>): Promise<T> {
  const value = await read();
  queryClient.setQueryData(queryKey, value);
  await keptReads.persistQueryByKey(queryKey, queryClient);
  return value;
}

/**
 * Reads through the cache outside a component (loaders, dialogs): asks the server and keeps the answer; when the
 * server is out of reach, answers the kept copy. Refusals are answers, never replaced by a copy.
 */
export async function keptRead<T>(queryKey: QueryKey, read: () => Promise<T>): Promise<Kept<T>> {
  try {
    return { value: await keepFresh({ queryKey, read }) };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const kept = await keptCopy<T>(queryKey);
    if (!kept) throw error;
    return kept;
  }
}

/** The copy of a read kept in memory or on the device, with when it was fetched. */
export async function keptCopy<T>(queryKey: QueryKey): Promise<Required<Kept<T>> | undefined> {
  const state = queryClient.getQueryState<T>(queryKey);
  if (state?.data !== undefined) return { value: state.data, offlineSince: state.dataUpdatedAt };
  const stored = await keptReadsStorage.getItem(`${PERSISTER_KEY_PREFIX}-${hashKey(queryKey)}`);
  if (!stored || Date.now() - stored.state.dataUpdatedAt > KEPT_READS_MAX_AGE_MS) return undefined;
  return { value: stored.state.data as T, offlineSince: stored.state.dataUpdatedAt };
}

/** Every copy kept of the reads under `prefix` (pages of a list with their filters), with when each was fetched. */
export async function keptCopies<T>(prefix: QueryKey): Promise<Array<Required<Kept<T>>>> {
  await keptReads.restoreQueries(queryClient, { queryKey: prefix });
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: prefix })
    .filter((query) => query.state.data !== undefined)
    .map((query) => ({ value: query.state.data as T, offlineSince: query.state.dataUpdatedAt }));
}

/** The server answers again: the screens that showed a kept copy read anew. */
export function refetchFailedReads() {
  void queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
}

/** Another person signed in: what the previous one read leaves memory (their kept copies stay theirs on the device). */
export function forgetReadsInMemory() {
  queryClient.clear();
}
