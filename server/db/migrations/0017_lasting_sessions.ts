import { sql, type Kysely } from 'kysely';

/**
 * A session may last on a device (a tablet taken on field outings): it slides over days instead of an hour, and its
 * owner sees it by the device it was opened on, to end it from elsewhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column lasting boolean not null default false`.execute(db);
  await sql`alter table sessions add column device text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column device`.execute(db);
  await sql`alter table sessions drop column lasting`.execute(db);
}
