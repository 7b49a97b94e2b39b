import { sql, type Kysely } from 'kysely';

/**
 * Every running server instance says it is alive (a heartbeat), and a key's request that is still running names
 * the instance running it: a key whose instance is gone can be taken over at once (idempotency.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table server_instances (
      id text primary key,
      started_at timestamptz not null default now(),
      alive_until timestamptz not null
    )`.execute(db);
  // Null on keys taken before instances were recorded: those know only their lease (`locked_until`).
  await sql`alter table idempotency_keys add column instance text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop column instance`.execute(db);
  await sql`drop table server_instances`.execute(db);
}
