import { sql, type Kysely } from 'kysely';

/**
 * A large write into an entry holding no rows of its own needs no journal line per row: its undo is deleting every
 * row of the entry without a file (bulkJournal.ts). The write says so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bulk_writes add column empty_before boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bulk_writes drop column empty_before`.execute(db);
}
