import { sql, type Kysely } from 'kysely';

/**
 * The order of an application's rights requests (newest first, then id), indexed: the list pages by it, and a
 * regular-expression filter reads every request a page at a time after the previous page's last one; without the
 * index each page sorted every request of the application again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index rights_requests_list_order on rights_requests (application_id, created_at desc, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index rights_requests_list_order`.execute(db);
}
