import { sql, type Kysely } from 'kysely';

/**
 * Each application's model version, raised by every change of its configuration: the model a process parsed is
 * kept as long as the application's model version is the one it was read at, instead of being read (and parsed)
 * again at every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications add column model_version bigint not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications drop column model_version`.execute(db);
}
