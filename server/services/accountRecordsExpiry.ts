import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** How long an ended session, key or counter is kept: a day past the last moment it could still matter. */
const KEPT_SECONDS = 24 * 3600;

export interface ForgottenAccountRecords {
  sessions: number;
  keys: number;
  counters: number;
}

/**
 * Deletes the sessions that ended (expired or revoked), the keys spent or expired, and the counters (rate limits,
 * sign-in and key failures) whose window and memory have passed, each kept a day more. Nothing else removes them:
 * every sign-in adds a session and every failing login a counter, so a script signing in or failing in a loop grew
 * these tables without end. `longestWindowSeconds` is the longest window a counter is read over (the sign-in
 * failures of a login are remembered a day).
 */
export async function forgetEndedAccountRecords(
  db: Kysely<Schema>,
  longestWindowSeconds: number,
): Promise<ForgottenAccountRecords> {
  const endedBefore = sql<Date>`now() - make_interval(secs => ${KEPT_SECONDS})`;
  const countedBefore = sql<Date>`now() - make_interval(secs => ${Math.max(longestWindowSeconds, KEPT_SECONDS) + KEPT_SECONDS})`;
  const sessions = await db
    .deleteFrom('sessions')
    .where(sql<boolean>`least(revoked_at, expires_at) < ${endedBefore}`)
    .executeTakeFirst();
  const keys = await db
    .deleteFrom('verification_keys')
    .where(sql<boolean>`least(used_at, expires_at) < ${endedBefore}`)
    .executeTakeFirst();
  const limits = await db
    .deleteFrom('rate_limits')
    .where(sql<boolean>`window_start < ${countedBefore}`)
    .executeTakeFirst();
  const failures = await db
    .deleteFrom('sign_in_failures')
    .where(sql<boolean>`greatest(window_start, last_failure_at) < ${countedBefore}`)
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    keys: Number(keys.numDeletedRows),
    counters: Number(limits.numDeletedRows) + Number(failures.numDeletedRows),
  };
}
