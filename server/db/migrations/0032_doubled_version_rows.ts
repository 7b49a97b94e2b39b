import { sql, type Kysely } from 'kysely';

/**
 * A version published twice got its rows twice (race audit M1: publishing an already published version inserted
 * them again, for good). Publication no longer does; this removes the copies it left — rows of one version with the
 * same natural key from the same line — keeping the first, and counts the entries they were in again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const doubled = await sql<{ application_id: string; data_name: string }>`
    with copies as (
      select id from (
        select id, row_number() over (partition by file_id, natural_key, line_number order by id) as rank
        from data_rows where file_id is not null
      ) as ranked
      where rank > 1
    ),
    removed as (
      delete from data_rows where id in (select id from copies) returning application_id, data_name
    )
    select distinct application_id, data_name from removed`.execute(db);
  for (const { application_id, data_name } of doubled.rows)
    await sql`update entry_counts set line_count = (
        select count(*) from data_rows where application_id = ${application_id} and data_name = ${data_name}
      ), version = version + 1
      where application_id = ${application_id} and data_name = ${data_name}`.execute(db);
}

/** The copies are not put back. */
export async function down(): Promise<void> {}
