import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per CSV line of every reference and data type, values as JSONB.
  await sql`
    create table data_rows (
      id uuid primary key,
      application_id uuid not null references applications(id) on delete cascade,
      data_name text not null,
      natural_key text not null,
      hierarchical_key text not null,
      values jsonb not null,
      -- hierarchical keys of the rows this row points to (reference checkers), for referential integrity
      refs text[] not null default '{}',
      line_number integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index data_rows_natural_key on data_rows (application_id, data_name, natural_key)`.execute(
    db,
  );
  // Prefix searches on hierarchical keys (trees, authorization scopes) use this index.
  await sql`create index data_rows_hierarchical_key on data_rows (application_id, data_name, hierarchical_key text_pattern_ops)`.execute(
    db,
  );
  await sql`create index data_rows_refs on data_rows using gin (refs)`.execute(db);

  await db.schema
    .createTable('entry_counts')
    .addColumn('application_id', 'uuid', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('data_name', 'text', (c) => c.notNull())
    .addColumn('line_count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_counts_pk', ['application_id', 'data_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('entry_counts').execute();
  await db.schema.dropTable('data_rows').execute();
}
