import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A deposited file (one version of a dataset): the bytes, the scope and period it covers, its publication.
  await sql`
    create table deposit_files (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      data_name text not null,
      file_name text not null,
      size bigint not null,
      content bytea not null,
      -- reference-scope component → hierarchical key of the chosen row
      scope jsonb not null default '{}',
      period_from timestamp,
      period_to timestamp,
      comment text not null default '',
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      published boolean not null default false,
      published_by uuid references users(id) on delete set null,
      published_at timestamptz,
      row_count integer not null default 0
    )`.execute(db);
  await sql`create index deposit_files_dataset on deposit_files (application_id, data_name, scope)`.execute(db);

  // Rows of a published version belong to its file; references and inserted data have no file.
  await sql`alter table data_rows add column file_id uuid references deposit_files(id) on delete cascade`.execute(db);
  await sql`alter table data_rows add column period_start timestamp`.execute(db);
  await sql`alter table data_rows add column period_end timestamp`.execute(db);
  await sql`create index data_rows_file on data_rows (file_id) where file_id is not null`.execute(db);
  // Natural keys are unique among rows without a file; published versions of different scopes may repeat them.
  await sql`drop index data_rows_natural_key`.execute(db);
  await sql`create unique index data_rows_natural_key on data_rows (application_id, data_name, natural_key) where file_id is null`.execute(
    db,
  );
  await sql`create index data_rows_versioned_key on data_rows (application_id, data_name, natural_key) where file_id is not null`.execute(
    db,
  );
  await sql`create index data_rows_period on data_rows (application_id, data_name, period_start)`.execute(db);

  // Long work (publication) runs as jobs any instance may claim; the UI polls their state.
  await sql`
    create table jobs (
      id uuid primary key,
      kind text not null,
      application_id uuid not null references applications(id) on delete cascade,
      file_id uuid references deposit_files(id) on delete cascade,
      requested_by uuid references users(id) on delete set null,
      payload jsonb not null default '{}',
      status text not null check (status in ('queued', 'running', 'done', 'failed')),
      progress real not null default 0,
      error jsonb,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index jobs_waiting on jobs (status, created_at) where status in ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
  await sql`drop index data_rows_natural_key`.execute(db);
  await sql`delete from data_rows where file_id is not null`.execute(db);
  await sql`alter table data_rows drop column file_id, drop column period_start, drop column period_end`.execute(db);
  await sql`create unique index data_rows_natural_key on data_rows (application_id, data_name, natural_key)`.execute(
    db,
  );
  await db.schema.dropTable('deposit_files').execute();
}
