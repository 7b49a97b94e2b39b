import { sql, type Kysely } from 'kysely';

/**
 * Upload bundles being streamed, one per user at most: a second request while one runs is refused (429) by any
 * instance. The claim is a lease kept alive while the download goes on, so a server that died frees it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table bundle_runs (
      user_id uuid primary key references users(id) on delete cascade,
      run_id uuid not null,
      application_id uuid not null references applications(id) on delete cascade,
      started_at timestamptz not null default now(),
      locked_until timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bundle_runs').execute();
}
