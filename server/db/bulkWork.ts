import { AsyncLocalStorage } from 'node:async_hooks';

const bulk = new AsyncLocalStorage<true>();

/**
 * Runs work nobody is watching a page for (an upload's checks and writes, a publication) as bulk work: on the
 * embedded database, whose one session serves every request in turn, its statements give way to those of people
 * waiting for a page (see embeddedPool.ts). Everything the work awaits, and timers it sets, stay bulk work.
 */
export const asBulkWork = <T>(work: () => Promise<T>): Promise<T> => bulk.run(true, work);

export const isBulkWork = (): boolean => bulk.getStore() === true;
