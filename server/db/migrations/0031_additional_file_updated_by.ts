import { sql, type Kysely } from 'kysely';

/**
 * Who last changed a file (its bytes, name or form): a type's administrator replacing someone's file left it under
 * its first owner only, with nothing saying who changed it. Files saved before are left without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table additional_files add column updated_by uuid references users(id) on delete set null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table additional_files drop column updated_by`.execute(db);
}
