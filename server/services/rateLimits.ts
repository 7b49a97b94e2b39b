import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/**
 * Fixed-window counters kept in the database, so that every server instance sees the same counts.
 * Returns whether this hit stays within `limit` hits per `windowSeconds`.
 */
export async function hitRateLimit(db: Kysely<Schema>, bucket: string, limit: number, windowSeconds: number): Promise<boolean> {
  const row = await sql<{ count: number }>`
    insert into rate_limits (bucket, window_start, count) values (${bucket}, now(), 1)
    on conflict (bucket) do update set
      count = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limits.window_start end
    returning count`.execute(db);
  return (row.rows[0]?.count ?? 0) <= limit;
}

export async function clearRateLimit(db: Kysely<Schema>, bucket: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('bucket', '=', bucket).execute();
}
