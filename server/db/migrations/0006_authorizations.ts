import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A named set of rights on the data of an application, given to users or (public) to everyone.
  await sql`
    create table authorizations (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      name text not null,
      description text not null default '',
      is_public boolean not null default false,
      -- {forAll: {data: [operation]}, restricted: {data: [{operations, scopes, from, to}]}}
      rules jsonb not null,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index authorizations_application on authorizations (application_id)`.execute(db);
  await sql`
    create table authorization_users (
      authorization_id uuid not null references authorizations(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      primary key (authorization_id, user_id)
    )`.execute(db);
  await sql`create index authorization_users_user on authorization_users (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('authorization_users').execute();
  await db.schema.dropTable('authorizations').execute();
}
