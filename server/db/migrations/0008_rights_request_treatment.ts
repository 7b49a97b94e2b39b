import { sql, type Kysely } from 'kysely';

/**
 * How a rights request was treated, kept apart from what was asked: the decision (granted or closed) survives the
 * revocation of the authorization it made, and the manager's comment does not replace the requester's. The
 * language is the one the requester wrote in: the mail telling them the outcome is written in it (accounts keep
 * no language of their own; the interface's choice travels as Accept-Language).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table rights_requests
      add column language text not null default 'fr',
      add column decision text check (decision in ('granted', 'closed')),
      add column treatment_comment text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rights_requests drop column language, drop column decision, drop column treatment_comment`.execute(
    db,
  );
}
