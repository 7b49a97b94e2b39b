import { sql, type Kysely } from 'kysely';

/**
 * Who deposited, published or added a file in the application a backup was taken of, as the text the backup gave:
 * a restore credits the restoring user (a bundle is a file anyone can write, so it must not name the accounts of
 * the target) and keeps the original people here, to show and to write into the next backup.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposit_files add column original_depositor text, add column original_publisher text`.execute(
    db,
  );
  await sql`alter table additional_files add column original_owner text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposit_files drop column original_depositor, drop column original_publisher`.execute(db);
  await sql`alter table additional_files drop column original_owner`.execute(db);
}
