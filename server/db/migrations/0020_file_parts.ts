import { sql, type Kysely } from 'kysely';

/** The size of the parts an existing file is cut into; new files are cut by fileParts.ts. */
const PART_BYTES = 1024 * 1024;

/**
 * Stored files (deposited versions, additional files, charters) are kept in parts: kept as one value, a 150 MB
 * deposit was held whole in the server's memory, then as its hexadecimal text to send it (the server grew to 0.9 GB
 * on PostgreSQL, 1.7 GB on the embedded database, and kept it). A deposit's parts are written as its bytes arrive,
 * under its id; an additional file's under a `content_id` of its own, new whenever its bytes are replaced. Parts go
 * with their file, whichever statement deletes or replaces it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_parts (
      content_id uuid not null,
      part integer not null,
      bytes bytea not null,
      written_at timestamptz not null default now(),
      primary key (content_id, part)
    )`.execute(db);
  await sql`alter table additional_files add column content_id uuid`.execute(db);
  await sql`update additional_files set content_id = id`.execute(db);
  await sql`alter table additional_files alter column content_id set not null`.execute(db);
  // What finds the file of a part (discarding a deposit's, removing abandoned ones).
  await sql`create unique index additional_files_content on additional_files (content_id)`.execute(db);
  // Each file read once, whole and decompressed, then cut: cut from the stored value, every part would decompress
  // the file from its start again. One file at a time in memory.
  for (const table of ['deposit_files', 'additional_files']) {
    await sql`
      do $$
      declare
        file record;
        whole bytea;
        part integer;
      begin
        for file in select id from ${sql.table(table)} loop
          select content || ''::bytea into whole from ${sql.table(table)} where id = file.id;
          part := 0;
          loop
            insert into file_parts (content_id, part, bytes)
            values (file.id, part, substring(whole from part * ${sql.lit(PART_BYTES)} + 1 for ${sql.lit(PART_BYTES)}));
            part := part + 1;
            exit when part * ${sql.lit(PART_BYTES)} >= octet_length(whole);
          end loop;
        end loop;
      end $$`.execute(db);
    // Emptied first, so that the old values' space is given back (a dropped column keeps them until rows are rewritten).
    await sql`update ${sql.table(table)} set content = ''::bytea`.execute(db);
    await sql`alter table ${sql.table(table)} drop column content`.execute(db);
  }
  await sql`
    create function file_parts_of_deleted_deposits() returns trigger language plpgsql as $$
    begin
      delete from file_parts where content_id in (select id from gone);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger file_parts_of_deleted_deposits after delete on deposit_files
    referencing old table as gone for each statement execute function file_parts_of_deleted_deposits()`.execute(db);
  await sql`
    create function file_parts_of_deleted_contents() returns trigger language plpgsql as $$
    begin
      delete from file_parts where content_id in (select content_id from gone);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger file_parts_of_deleted_contents after delete on additional_files
    referencing old table as gone for each statement execute function file_parts_of_deleted_contents()`.execute(db);
  await sql`
    create function file_parts_of_replaced_contents() returns trigger language plpgsql as $$
    begin
      delete from file_parts where content_id in (select content_id from gone except select content_id from kept);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger file_parts_of_replaced_contents after update on additional_files
    referencing old table as gone new table as kept for each statement
    execute function file_parts_of_replaced_contents()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger file_parts_of_replaced_contents on additional_files`.execute(db);
  await sql`drop function file_parts_of_replaced_contents()`.execute(db);
  await sql`drop trigger file_parts_of_deleted_contents on additional_files`.execute(db);
  await sql`drop function file_parts_of_deleted_contents()`.execute(db);
  await sql`drop trigger file_parts_of_deleted_deposits on deposit_files`.execute(db);
  await sql`drop function file_parts_of_deleted_deposits()`.execute(db);
  for (const [table, key] of [
    ['deposit_files', 'id'],
    ['additional_files', 'content_id'],
  ] as const) {
    await sql`alter table ${sql.table(table)} add column content bytea not null default ''::bytea`.execute(db);
    await sql`
      update ${sql.table(table)} f set content = (
        select coalesce(string_agg(p.bytes, ''::bytea order by p.part), ''::bytea)
        from file_parts p where p.content_id = f.${sql.ref(key)})`.execute(db);
    await sql`alter table ${sql.table(table)} alter column content drop default`.execute(db);
  }
  await sql`drop index additional_files_content`.execute(db);
  await sql`alter table additional_files drop column content_id`.execute(db);
  await sql`drop table file_parts`.execute(db);
}
