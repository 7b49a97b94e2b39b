import { sql, type Kysely } from 'kysely';

/**
 * The order in which a backup writes an application's additional files (creation, then id), indexed: they are read
 * a page at a time, each page starting after the previous one, and without the index each page sorted every file
 * of the application again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index additional_files_backup_order on additional_files (application_id, created_at, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index additional_files_backup_order`.execute(db);
}
