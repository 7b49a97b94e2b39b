import { sql, type Kysely } from 'kysely';

/**
 * The indexes built on demand for searches and filters (filterIndexes.ts) held whole texts, and a label or a value
 * of a few thousand characters failed the write of its row once they existed. They now hold the beginning of those
 * texts. Those built before are dropped here (the filters' keep their names): each is built again, bounded, the
 * next time a search or a filter asks for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const built = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where tablename = 'data_rows' and (indexname like 'data_rows_search_%' or indexname like 'data_rows_filter_%')`.execute(
    db,
  );
  for (const { name } of built.rows) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to put back: the indexes are built again on demand.
}
