import { sql, type Kysely } from 'kysely';

/**
 * An idempotency key is marked `applied` in the transaction that applies its request's work, and names the claim
 * that ran it: a work whose answer was never kept (the server stopped, the database went away in between) is then
 * not run again by a retry, and a request whose key another retry took over cannot apply its work as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop constraint idempotency_keys_status_check`.execute(db);
  await sql`alter table idempotency_keys add constraint idempotency_keys_status_check
    check (status in ('running', 'applied', 'done'))`.execute(db);
  await sql`alter table idempotency_keys add column claim text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop column claim`.execute(db);
  await sql`update idempotency_keys set status = 'running' where status = 'applied'`.execute(db);
  await sql`alter table idempotency_keys drop constraint idempotency_keys_status_check`.execute(db);
  await sql`alter table idempotency_keys add constraint idempotency_keys_status_check
    check (status in ('running', 'done'))`.execute(db);
}
