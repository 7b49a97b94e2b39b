import { sql, type Kysely } from 'kysely';
import type { Schema } from './schema.ts';

/** How often the embedded database's tables are vacuumed. */
export const EMBEDDED_VACUUM_EVERY_MS = 10 * 60 * 1000;

/**
 * PGlite runs PostgreSQL in single-user mode, where autovacuum never runs. Without vacuum the space of deleted and
 * updated rows is never reused (only vacuum fills the free space map), so a table that keeps deleting and
 * inserting (kept answers, sessions, rate limits, jobs, rows sent again) grows for good: twenty rounds of 5,000 rows
 * inserted then deleted made a 2.5 MB table 25 MB. The server vacuums the embedded database's tables itself, one
 * statement per table, so pages asked for meanwhile go in between (sessionOrder.ts). Pages unchanged since the last
 * vacuum are skipped (the visibility map), so a run costs what changed. No `analyze` here: it samples every table
 * each time, and large writes already ask for one (dataRows.ts). Then a checkpoint. Answers the tables vacuumed.
 */
export async function vacuumEmbeddedTables(db: Kysely<Schema>): Promise<string[]> {
  const tables = await sql<{
    name: string;
  }>`select tablename as name from pg_tables where schemaname = 'public' order by tablename`.execute(db);
  const names = tables.rows.map((row) => row.name);
  for (const name of names) await sql`vacuum ${sql.table(name)}`.execute(db);
  // Single-user PostgreSQL has no checkpointer: its log would grow to `max_wal_size` (a gigabyte) before the
  // database checkpoints by itself. A checkpoint after each run deletes the segments written since the last one
  // (they are not kept for reuse, embeddedPool.ts), so the log holds at most what ten minutes wrote.
  await sql`checkpoint`.execute(db);
  return names;
}

/** Vacuums the embedded database now and then; answers the function that stops it. */
export function startEmbeddedVacuum(
  db: Kysely<Schema>,
  log: (line: string) => void,
  everyMs = EMBEDDED_VACUUM_EVERY_MS,
): () => void {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = vacuumEmbeddedTables(db).catch((error: unknown) =>
      log(`vacuum of the embedded database failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return running;
  };
}
