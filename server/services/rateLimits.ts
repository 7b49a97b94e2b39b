import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { RefusalCode } from '../../src/domain/errors/refusalCodes.ts';

export interface RateLimitHit {
  /** Whether this hit stays within the limit. */
  allowed: boolean;
  /** Seconds until the window ends and the count starts again. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters kept in the database, so that every server instance sees the same counts: counts this hit
 * against `limit` hits per `windowSeconds`.
 */
export async function hitRateLimit(
  db: Kysely<Schema>,
  bucket: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitHit> {
  const row = await sql<{ count: number; left: number }>`
    insert into rate_limits (bucket, window_start, count) values (${bucket}, now(), 1)
    on conflict (bucket) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limits.window_start end
    returning count, extract(epoch from window_start + make_interval(secs => ${windowSeconds}) - now())::float8 as left`.execute(
    db,
  );
  const { count = 0, left = windowSeconds } = row.rows[0] ?? {};
  return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil(Number(left))) };
}

/** Counts this hit and refuses it with 429 (and when to try again) past the limit. */
export async function enforceRateLimit(
  db: Kysely<Schema>,
  bucket: string,
  limit: number,
  windowSeconds: number,
  code: RefusalCode = 'TOO_MANY_REQUESTS',
): Promise<void> {
  const hit = await hitRateLimit(db, bucket, limit, windowSeconds);
  if (!hit.allowed) throw new Refusal(code, {}, hit.retryAfterSeconds);
}
