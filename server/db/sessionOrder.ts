import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The order in which the embedded database's one session is lent. Handing it out first come, first served per
 * statement made every request wait in the queue once per statement: a page reads its session, its application,
 * its rights and its rows one after the other, and under load each of those waited behind every statement asked
 * for meanwhile (`npm run load`: 5 waits of 60 ms at the median). Statements are lent instead in the order their
 * requests arrived, so a started page finishes before later ones begin. Work that holds the session long (uploads,
 * exports, jobs) queues by the time it asks, or it would go before every page that arrived since it began.
 */
interface Place {
  arrivedAt: number;
  /** How long the request has held the session so far. */
  heldMs: number;
}

const places = new AsyncLocalStorage<Place>();

/** A request that has held the session this long is long work: its statements queue by when they are asked for. */
const LONG_WORK_HELD_MS = 200;

/** Requests' statements asking for or holding the session now, and when the last one gave it back. */
let requestStatements = 0;
let requestGaveBackAt = -Infinity;
/** A request asks for the session again within this after its previous statement's answer (its JavaScript between). */
const REQUEST_QUIET_MS = 10;

/** Runs a request's handling with its arrival time (performance.now()). */
export function inArrivalOrder<T>(arrivedAt: number, handle: () => T): T {
  return places.run({ arrivedAt, heldMs: 0 }, handle);
}

/** Runs bulk work (an upload's checking and writing): its statements queue by when they are asked for. */
export function asBulkWork<T>(work: () => T): T {
  return places.exit(work);
}

/**
 * The place in the queue of a statement asked for now, and what to call once the session is given back (it counts
 * the time held against the request).
 */
export function queuePlace(now = performance.now()): { key: number; heldFrom(lentAt: number): () => void } {
  const place = places.getStore();
  if (place) requestStatements += 1;
  const key = place === undefined || place.heldMs >= LONG_WORK_HELD_MS ? now : place.arrivedAt;
  return {
    key,
    heldFrom: (lentAt) => () => {
      if (!place) return;
      place.heldMs += performance.now() - lentAt;
      requestStatements -= 1;
      requestGaveBackAt = performance.now();
    },
  };
}

/**
 * Waits, between two transactions of bulk work, until requests have stopped using the session (none asking for
 * it nor holding it, none for REQUEST_QUIET_MS), or for `atMostMs`. A page asks for it several times (its session,
 * rights, rows), each time after reading the previous answer: the session given back, bulk work asking at once got it before the page's
 * next statement, and the page waited for one bulk transaction per statement. Bounded, so that bulk work under a
 * steady flow of pages still goes on at half its pace or more.
 */
export async function letRequestsThrough(atMostMs: number): Promise<void> {
  const until = performance.now() + atMostMs;
  for (;;) {
    const now = performance.now();
    const quietFor = now - requestGaveBackAt;
    if ((requestStatements === 0 && quietFor >= REQUEST_QUIET_MS) || now >= until) return;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(1, Math.min(REQUEST_QUIET_MS - quietFor, until - now))),
    );
  }
}
