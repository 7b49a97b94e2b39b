import { sql, type Kysely } from 'kysely';

/**
 * The order in which a backup writes an application's deposited versions (creation, then id), indexed: they are
 * read a page at a time, each page starting after the previous one, and without the index each page sorted every
 * version of the application again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index deposit_files_backup_order on deposit_files (application_id, created_at, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index deposit_files_backup_order`.execute(db);
}
