import { sql, type Kysely } from 'kysely';
import { additionalFileNameKey } from '../../../src/domain/additionalFiles/fileName.ts';

/** Files whose keys one statement writes while the column is filled. */
const PAGE = 5_000;

/**
 * The name every file of a type must not share with another, stored and indexed: saving a file read the name of
 * every file of its type to compare them, as long as the type held files. Computed by the domain, not the database
 * (see `additionalFileNameKey`), so existing files are filled in pages here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table additional_files add column name_key text`.execute(db);
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const page = await sql<{ id: string; file_name: string }>`
      select id, file_name from additional_files where id > ${after}::uuid order by id limit ${PAGE}`.execute(db);
    if (page.rows.length === 0) break;
    const ids = page.rows.map((row) => row.id);
    const keys = page.rows.map((row) => additionalFileNameKey(row.file_name));
    await sql`update additional_files as f set name_key = k.key
      from unnest(${ids}::uuid[], ${keys}::text[]) as k(id, key) where f.id = k.id`.execute(db);
    after = ids[ids.length - 1]!;
  }
  await sql`alter table additional_files alter column name_key set not null`.execute(db);
  await sql`create index additional_files_name_key on additional_files (application_id, file_type, name_key)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table additional_files drop column name_key`.execute(db);
}
