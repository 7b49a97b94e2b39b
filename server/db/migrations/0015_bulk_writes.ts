import { sql, type Kysely } from 'kysely';

/**
 * Large writes on the embedded database run in short transactions, each batch journaled (bulkJournal.ts): one
 * line per write under way names its entry and its journal, a table of the `bulk_journal` schema (apart from the
 * public tables the embedded vacuum goes through, since journals come and go). A line left by a crash is undone at
 * the next start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create schema bulk_journal`.execute(db);
  await sql`
    create table bulk_writes (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      data_name text not null,
      journal text not null unique,
      started_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bulk_writes`.execute(db);
  await sql`drop schema bulk_journal cascade`.execute(db);
}
