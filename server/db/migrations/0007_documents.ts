import { sql, type Kysely } from 'kysely';

/** Additional files (and the charter, a file of type `__charter__`), their authorizations, and rights requests. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table additional_files (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      -- a key of OA_additionalFiles, or __charter__ for the application's charter
      file_type text not null,
      file_name text not null,
      content_type text not null default 'application/octet-stream',
      size bigint not null,
      content bytea not null,
      comment text not null default '',
      -- values of the type's OA_formFields, as typed
      fields jsonb not null default '{}',
      -- the data the file is attached to: {data name: [{operations, scopes, from, to}]}
      associates jsonb not null default '{}',
      for_application boolean not null default false,
      owner_id uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index additional_files_name on additional_files (application_id, file_type, file_name)`.execute(
    db,
  );

  await sql`
    create table additional_file_authorizations (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      name text not null,
      -- {admin: [file type], depot: [...], extraction: [...], delete: [...]}
      rights jsonb not null,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index additional_file_authorizations_application on additional_file_authorizations (application_id)`.execute(
    db,
  );
  await sql`
    create table additional_file_authorization_users (
      authorization_id uuid not null references additional_file_authorizations(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      primary key (authorization_id, user_id)
    )`.execute(db);
  await sql`create index additional_file_authorization_users_user on additional_file_authorization_users (user_id)`.execute(
    db,
  );

  await sql`
    create table rights_requests (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      comment text not null default '',
      -- values of OA_rightsRequest's form fields
      fields jsonb not null default '{}',
      -- the rights asked for, as authorization rules
      rules jsonb not null,
      setted boolean not null default false,
      treated_by uuid references users(id) on delete set null,
      authorization_id uuid references authorizations(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index rights_requests_application on rights_requests (application_id, setted)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rights_requests').execute();
  await db.schema.dropTable('additional_file_authorization_users').execute();
  await db.schema.dropTable('additional_file_authorizations').execute();
  await db.schema.dropTable('additional_files').execute();
}
