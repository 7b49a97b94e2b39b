import { sql, type Kysely } from 'kysely';

/**
 * The order of additional-file lists and zips (type, name with case ignored, name), indexed: a filtered list reads
 * every file of a type a page at a time, each page starting after the previous one, and without the index each
 * page sorted every file of the type again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index additional_files_list_order on additional_files (application_id, file_type, lower(file_name), file_name)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index additional_files_list_order`.execute(db);
}
