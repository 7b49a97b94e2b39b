import { sql, type Kysely } from 'kysely';

/**
 * An application being restored from a backup on the embedded database: written step by step, with other users'
 * requests let through in between, it is hidden from every list and look-up (its name stays taken) until its last
 * step clears the mark. A failed or interrupted restore is removed (at the next start when it was a crash).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications add column restoring_since timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications drop column restoring_since`.execute(db);
}
