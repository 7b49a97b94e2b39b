import { sql, type Kysely, type RawBuilder } from 'kysely';
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
  const sessions = await deleteInBatches(db, 'sessions', 'id', sql`least(revoked_at, expires_at) < ${endedBefore}`);
  const keys = await deleteInBatches(db, 'verification_keys', 'id', sql`least(used_at, expires_at) < ${endedBefore}`);
  const limits = await deleteInBatches(db, 'rate_limits', 'bucket', sql`window_start < ${countedBefore}`);
  const failures = await deleteInBatches(
    db,
    'sign_in_failures',
    'bucket',
    sql`greatest(window_start, last_failure_at) < ${countedBefore}`,
  );
  return { sessions, keys, counters: limits + failures };
}

/** Rows deleted per statement: the first run after a long time may find a backlog, which must not hold the database. */
const DELETED_PER_STATEMENT = 5_000;

async function deleteInBatches(
  db: Kysely<Schema>,
  table: 'sessions' | 'verification_keys' | 'rate_limits' | 'sign_in_failures',
  key: 'id' | 'bucket',
  ended: RawBuilder<unknown>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const done = await sql`
      delete from ${sql.table(table)} where ${sql.ref(key)} in (
        select ${sql.ref(key)} from ${sql.table(table)} where ${ended} limit ${DELETED_PER_STATEMENT})`.execute(db);
    const count = Number(done.numAffectedRows ?? 0);
    deleted += count;
    if (count < DELETED_PER_STATEMENT) return deleted;
  }
}
