import { sql, type Kysely } from 'kysely';

/**
 * Each entry's write version, raised by every write to its rows (with its line count): a total computed for a
 * restricted reader is kept only as long as the version it was computed at is the entry's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table entry_counts add column version bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table entry_counts drop column version`.execute(db);
}
