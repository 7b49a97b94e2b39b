import { ApiError } from '@/lib/api/apiError';
import { readSetting, writeSetting } from './db';

/** An answer, or the one this device kept from its last visit (with when) when the server is out of reach. */
export interface Kept<T> {
  value: T;
  offlineSince?: number;
}

/**
 * Asks the server, keeps the answer on the device under `key`, and answers the kept one when the network is down:
 * a screen seen once online opens offline with what it showed then. Refusals are not covered: they are answers.
 */
export async function keptCall<T>(key: string, call: () => Promise<T>): Promise<Kept<T>> {
  try {
    const value = await call();
    await writeSetting(key, { value, fetchedAt: Date.now() });
    return { value };
  } catch (error) {
    if (!(error instanceof ApiError && error.isNetworkError)) throw error;
    const kept = await readKept<T>(key);
    if (!kept) throw error;
    return kept;
  }
}

/** The answer kept under `key` by an earlier `keptCall`, with when it was fetched; undefined when there is none. */
export async function readKept<T>(key: string): Promise<Required<Kept<T>> | undefined> {
  const kept = await readSetting<{ value: T; fetchedAt: number }>(key);
  return kept ? { value: kept.value, offlineSince: kept.fetchedAt } : undefined;
}
