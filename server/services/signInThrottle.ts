import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** How sign-ins are slowed down after failures (server configuration `loginRateLimit`). */
export interface SignInLimits {
  /** Failures of one login from one address before each further attempt must wait (1 s, 2 s, 4 s…). */
  perLogin: number;
  /** Failures from one address, whatever the login, within a window. */
  perAddress: number;
  /** Failures over the whole platform within a window, past which addresses that failed wait for the next one. */
  global: number;
  windowSeconds: number;
}

/** The longest wait between two attempts of one login from one address. */
export const MAX_DELAY_SECONDS = 15 * 60;
/** The failures of a login from an address are forgotten this long after the last one. */
const PAIR_MEMORY_SECONDS = 24 * 3600;

const pairBucket = (login: string, address: string) => `pair:${JSON.stringify([login.trim().toLowerCase(), address])}`;
const addressBucket = (address: string) => `address:${address}`;
const GLOBAL_BUCKET = 'global';

interface Failures {
  failures: number;
  sinceWindow: number;
  sinceLast: number;
}

async function failuresOf(db: Kysely<Schema>, buckets: string[]): Promise<Map<string, Failures>> {
  const rows = await sql<{ bucket: string; failures: number; since_window: number; since_last: number }>`
    select bucket, failures, extract(epoch from now() - window_start)::float8 as since_window, extract(epoch from now() - last_failure_at)::float8 as since_last
    from sign_in_failures where bucket = any(${buckets}::text[])`.execute(db);
  return new Map(
    rows.rows.map((r) => [
      r.bucket,
      { failures: r.failures, sinceWindow: Number(r.since_window), sinceLast: Number(r.since_last) },
    ]),
  );
}

/** A wait as the refusal's message says it: seconds under two minutes, whole minutes (rounded up) beyond. */
function tooManyAttempts(seconds: number): Refusal {
  const wait = Math.max(1, Math.ceil(seconds));
  const params = wait < 120 ? { wait, unit: 'seconds' } : { wait: Math.ceil(wait / 60), unit: 'minutes' };
  return new Refusal('TOO_MANY_ATTEMPTS', params, wait);
}

/** The wait the n-th failure of a login from one address imposes before the next attempt, in seconds. */
export function delayAfter(failures: number, perLogin: number): number {
  if (failures < perLogin) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** Math.min(failures - perLogin, 20));
}

/**
 * Refuses (429, with when to try again) a sign-in that must wait: the login failed too often from this address
 * lately (a wait that doubles with each failure), this address failed too often in the window, or the whole
 * platform did and this address is among those that failed. Only failures count, and a success clears those of
 * its login and address: someone failing on purpose from elsewhere never holds the owner back.
 */
export async function checkSignIn(
  db: Kysely<Schema>,
  limits: SignInLimits,
  login: string,
  address: string,
): Promise<void> {
  const pair = pairBucket(login, address);
  const known = await failuresOf(db, [pair, addressBucket(address), GLOBAL_BUCKET]);
  const waits: number[] = [];
  const own = known.get(pair);
  if (own && own.sinceLast < PAIR_MEMORY_SECONDS) waits.push(delayAfter(own.failures, limits.perLogin) - own.sinceLast);
  const fromAddress = known.get(addressBucket(address));
  const addressWindow = fromAddress && fromAddress.sinceWindow < limits.windowSeconds ? fromAddress : undefined;
  if (addressWindow && addressWindow.failures >= limits.perAddress)
    waits.push(limits.windowSeconds - addressWindow.sinceWindow);
  const everywhere = known.get(GLOBAL_BUCKET);
  if (
    addressWindow &&
    everywhere &&
    everywhere.sinceWindow < limits.windowSeconds &&
    everywhere.failures >= limits.global
  ) {
    waits.push(limits.windowSeconds - everywhere.sinceWindow);
  }
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw tooManyAttempts(wait);
}

/** Counts a failed sign-in of `login` from `address`. */
export async function recordSignInFailure(
  db: Kysely<Schema>,
  limits: SignInLimits,
  login: string,
  address: string,
): Promise<void> {
  await sql`
    insert into sign_in_failures as f (bucket, failures) values (${pairBucket(login, address)}, 1)
    on conflict (bucket) do update set
      failures = case when f.last_failure_at < now() - make_interval(secs => ${PAIR_MEMORY_SECONDS}) then 1 else f.failures + 1 end,
      last_failure_at = now()`.execute(db);
  await countInWindow(db, addressBucket(address), limits.windowSeconds);
  await countInWindow(db, GLOBAL_BUCKET, limits.windowSeconds);
}

/** Counts a failure in a fixed window (a new window starts at the first failure after the last one ended). */
async function countInWindow(db: Kysely<Schema>, bucket: string, windowSeconds: number): Promise<number> {
  const row = await sql<{ failures: number }>`
    insert into sign_in_failures as f (bucket, failures) values (${bucket}, 1)
    on conflict (bucket) do update set
      failures = case when f.window_start < now() - make_interval(secs => ${windowSeconds}) then 1 else f.failures + 1 end,
      window_start = case when f.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else f.window_start end,
      last_failure_at = now()
    returning failures`.execute(db);
  return row.rows[0]?.failures ?? 0;
}

/** A success: the failures of this login from this address are forgotten. */
export async function clearSignInFailures(db: Kysely<Schema>, login: string, address: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('bucket', '=', pairBucket(login, address)).execute();
}

/** Wrong keys an account may try (per purpose) within a window; the live key dies at the last one. */
export const MAX_KEY_FAILURES = 10;

const keyBucket = (userId: string, purpose: string) => `key:${userId}:${purpose}`;

/** Refuses (429) a key check on an account that has used up its wrong keys in this window. */
export async function checkKeyAttempts(
  db: Kysely<Schema>,
  windowSeconds: number,
  userId: string,
  purpose: string,
): Promise<void> {
  const known = (await failuresOf(db, [keyBucket(userId, purpose)])).get(keyBucket(userId, purpose));
  if (known && known.sinceWindow < windowSeconds && known.failures >= MAX_KEY_FAILURES) {
    throw tooManyAttempts(windowSeconds - known.sinceWindow);
  }
}

/** Counts a wrong key; answers whether that was the last one allowed (the caller then kills the live key). */
export async function recordKeyFailure(
  db: Kysely<Schema>,
  windowSeconds: number,
  userId: string,
  purpose: string,
): Promise<boolean> {
  return (await countInWindow(db, keyBucket(userId, purpose), windowSeconds)) >= MAX_KEY_FAILURES;
}

export async function clearKeyFailures(db: Kysely<Schema>, userId: string, purpose: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('bucket', '=', keyBucket(userId, purpose)).execute();
}
