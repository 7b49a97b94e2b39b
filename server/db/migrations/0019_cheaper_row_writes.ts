import { sql, type Kysely } from 'kysely';

/**
 * What every row written paid for without using it (docs/benchmarks.md, decisions.md):
 * - Foreign keys from a data row to its application and its version: each is a trigger run for every row written,
 *   about a third of the time to insert a row. Rows are only written by the services, for an application that
 *   exists, and they delete a version's rows, or an entry's, before the version itself (publication.ts,
 *   configurationUpdate.ts); applications are never deleted.
 * - The period index held every row, most of them without a period (references, data without a time scope): it now
 *   holds the rows that have one, the only ones its readers look for.
 * - The index of the keys a row points to held every row, those pointing nowhere too: it now holds the others, and
 *   the one question it answers (which rows point to these keys) says so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data_rows drop constraint if exists data_rows_application_id_fkey`.execute(db);
  await sql`alter table data_rows drop constraint if exists data_rows_file_id_fkey`.execute(db);
  await sql`drop index if exists data_rows_period`.execute(db);
  await sql`create index data_rows_period on data_rows (application_id, data_name, period_start) where period_start is not null`.execute(
    db,
  );
  await sql`drop index if exists data_rows_refs`.execute(db);
  await sql`create index data_rows_refs on data_rows using gin (refs) where refs <> '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists data_rows_refs`.execute(db);
  await sql`create index data_rows_refs on data_rows using gin (refs)`.execute(db);
  await sql`drop index if exists data_rows_period`.execute(db);
  await sql`create index data_rows_period on data_rows (application_id, data_name, period_start)`.execute(db);
  await sql`alter table data_rows add constraint data_rows_application_id_fkey foreign key (application_id) references applications(id) on delete cascade`.execute(
    db,
  );
  await sql`alter table data_rows add constraint data_rows_file_id_fkey foreign key (file_id) references deposit_files(id) on delete cascade`.execute(
    db,
  );
}
