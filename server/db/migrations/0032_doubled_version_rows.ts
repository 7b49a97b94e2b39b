import { sql, type Kysely } from 'kysely';

/**
 * A version published twice got its rows twice (race audit M1: publishing an already published version inserted
 * them again, for good). Publication no longer does; this removes the copies it left — rows of one version with the
 * same natural key from the same line, which a file never gives twice — keeping the first. Every entry is then
 * counted again in one pass: counts two writers committed together could have left short (race audit M6).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from data_rows where id in (
      select id from (
        select id, row_number() over (partition by file_id, natural_key, line_number order by id) as rank
        from data_rows where file_id is not null
      ) as ranked
      where rank > 1
    )`.execute(db);
  await sql`
    update entry_counts as e set line_count = coalesce(c.rows, 0), version = e.version + 1
    from entry_counts as k
    left join (select application_id, data_name, count(*) as rows from data_rows group by application_id, data_name) as c
      on c.application_id = k.application_id and c.data_name = k.data_name
    where e.application_id = k.application_id and e.data_name = k.data_name
      and e.line_count is distinct from coalesce(c.rows, 0)`.execute(db);
}

/** The copies are not put back. */
export async function down(): Promise<void> {}
