import { sql, type Kysely } from 'kysely';

/** The size of the parts an existing deposit is cut into; new deposits are cut by depositedFile.ts. */
const PART_BYTES = 1024 * 1024;

/**
 * A deposited file is kept in parts, written as its bytes arrive: kept as one value, a 150 MB deposit was held
 * whole in the server's memory, then as its hexadecimal text to send it (the server grew to 0.9 GB on PostgreSQL,
 * 1.7 GB on the embedded database, and kept it). A file's parts go with it, whichever statement deletes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table deposit_file_parts (
      file_id uuid not null,
      part integer not null,
      bytes bytea not null,
      written_at timestamptz not null default now(),
      primary key (file_id, part)
    )`.execute(db);
  await sql`
    insert into deposit_file_parts (file_id, part, bytes)
    select f.id, p.part, substring(f.content from p.part * ${sql.lit(PART_BYTES)} + 1 for ${sql.lit(PART_BYTES)})
    from deposit_files f, generate_series(0, greatest(octet_length(f.content) - 1, 0) / ${sql.lit(PART_BYTES)}) as p(part)`.execute(
    db,
  );
  // Emptied first, so that the old values' space is given back (a dropped column keeps them until rows are rewritten).
  await sql`update deposit_files set content = ''::bytea`.execute(db);
  await sql`alter table deposit_files drop column content`.execute(db);
  await sql`
    create function deposit_file_parts_go_with_files() returns trigger language plpgsql as $$
    begin
      delete from deposit_file_parts where file_id in (select id from gone);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger deposit_file_parts_go_with_files after delete on deposit_files
    referencing old table as gone for each statement execute function deposit_file_parts_go_with_files()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger deposit_file_parts_go_with_files on deposit_files`.execute(db);
  await sql`drop function deposit_file_parts_go_with_files()`.execute(db);
  await sql`alter table deposit_files add column content bytea not null default ''::bytea`.execute(db);
  await sql`
    update deposit_files f set content = (
      select coalesce(string_agg(p.bytes, ''::bytea order by p.part), ''::bytea) from deposit_file_parts p where p.file_id = f.id)`.execute(
    db,
  );
  await sql`alter table deposit_files alter column content drop default`.execute(db);
  await sql`drop table deposit_file_parts`.execute(db);
}
