import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The order in which the embedded database's one session is lent. Handing it out first come, first served per
 * statement made every request wait in the queue once per statement: a page reads its session, its application,
 * its rights and its rows one after the other, and under load each of those waited behind every statement asked
 * for meanwhile (`npm run load`: 5 waits of 60 ms at the median). Statements are lent instead in the order their
 * requests arrived, so a started page finishes before later ones begin. Work that runs long (uploads, streamed
 * downloads, jobs) queues by the time it asks, or it would go before every page arrived since it began.
 */
const arrivals = new AsyncLocalStorage<number>();

/** A request older than this is long work: its statements queue by when they are asked for. */
const LONG_WORK_MS = 1_000;

/** Runs a request's handling with its arrival time (performance.now()). */
export function inArrivalOrder<T>(arrivedAt: number, handle: () => T): T {
  return arrivals.run(arrivedAt, handle);
}

/** Runs bulk work (an upload's checking and writing): its statements queue by when they are asked for. */
export function asBulkWork<T>(work: () => T): T {
  return arrivals.exit(work);
}

/** The place in the queue of a statement asked for now. */
export function queueKey(now = performance.now()): number {
  const arrivedAt = arrivals.getStore();
  return arrivedAt === undefined || now - arrivedAt > LONG_WORK_MS ? now : arrivedAt;
}
