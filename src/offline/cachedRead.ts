import type { QueryKey } from '@tanstack/react-query';
import type { OfflineStep } from './offlineSteps';
import { keptReads, queryClient } from './queryCache';

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
 * A step of "Make available offline" keeping `reads` anew, in order. A copy kept before never stands in for an
 * answer: an unreachable server or a refusal fails the step with the server's ApiError.
 */
export function readsStep(label: string, reads: ReadonlyArray<CachedRead<unknown>>): OfflineStep {
  return {
    label,
    keep: async () => {
      for (const read of reads) await keepFresh(read);
    },
  };
}
