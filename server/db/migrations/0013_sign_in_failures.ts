import { sql, type Kysely } from 'kysely';

/**
 * Failed sign-ins and key checks, counted per login and address, per address, per account and over the platform:
 * delays grow with the failures of one login from one address, and a success clears them, so that nobody can lock
 * an account's owner out by failing on purpose from elsewhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sign_in_failures (
      bucket text primary key,
      failures integer not null,
      window_start timestamptz not null default now(),
      last_failure_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sign_in_failures`.execute(db);
}
