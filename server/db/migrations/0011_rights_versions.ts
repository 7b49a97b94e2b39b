import { sql, type Kysely } from 'kysely';

/**
 * Each application's rights version, raised by every change to its authorizations or its users' roles: the rights
 * a process worked out for a user are kept only as long as the application's rights version is the one they were
 * worked out at.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications add column rights_version bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications drop column rights_version`.execute(db);
}
