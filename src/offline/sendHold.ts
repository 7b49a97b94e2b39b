import { backoffMs, stillWaiting } from './backoff';
import type { TerrainDatabase } from './db';

/**
 * While the server cannot be reached (or the session has expired), the outbox holds every send until a time that
 * doubles with each failure. The hold lives in IndexedDB, not in memory, so that the page and the service worker —
 * each with its own outbox over the same database — wait for the same time instead of each retrying on its own.
 */
export interface SendHold {
  /** Failed passes in a row. */
  failures: number;
  /** No pass sends before this time (ms since the epoch). */
  until: number;
  /** The device had no network when the last pass failed: the network coming back lifts the hold at once. */
  offline: boolean;
}

const SEND_HOLD_SETTING = 'outboxSendHold';

export async function readSendHold(db: TerrainDatabase): Promise<SendHold | undefined> {
  return (await db.settings.get(SEND_HOLD_SETTING))?.value as SendHold | undefined;
}

/** Records one more failed pass and holds sends for the next step of the backoff. */
export async function holdSends(db: TerrainDatabase, now: number, offline: boolean): Promise<void> {
  const failures = ((await readSendHold(db))?.failures ?? 0) + 1;
  const hold: SendHold = { failures, until: now + backoffMs(failures), offline };
  await db.settings.put({ key: SEND_HOLD_SETTING, value: hold });
}

/** The server answered (or is said to): sends go again at once. */
export async function liftSendHold(db: TerrainDatabase): Promise<void> {
  await db.settings.delete(SEND_HOLD_SETTING);
}

/** Whether a pass must not send now. */
export function isHeld(hold: SendHold | undefined, now: number, online: boolean): boolean {
  if (!hold || !stillWaiting(hold.until, now)) return false;
  // Failures met without any network say nothing about the server: once the network is back, try at once.
  return !(hold.offline && online);
}
