import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/**
 * What a backup copies, as one text: the application's configuration, each entry's write version (raised by every
 * write of its rows, a publication's included), its deposited versions with whether each is published, and its
 * additional files with their contents. A backup is read over minutes, a statement at a time (the embedded database
 * lends its one session to the other requests between them): a change meanwhile may leave it holding a data row
 * pointing to a reference row it lacks, or rows of a configuration it does not hold — a backup no restore accepts,
 * found out when it is needed. Read again before the manifest, the stamp tells.
 */
export async function backupStamp(db: Kysely<Schema>, applicationId: string): Promise<string> {
  const { rows } = await sql<{ stamp: string | null }>`
    select concat_ws('|',
      (select version || ':' || model_version from applications where id = ${applicationId}),
      (select string_agg(data_name || '=' || version, ',' order by data_name)
         from entry_counts where application_id = ${applicationId}),
      (select md5(string_agg(id::text || ':' || published::text, ',' order by id))
         from deposit_files where application_id = ${applicationId}),
      (select md5(string_agg(id::text || ':' || content_id::text || ':' || updated_at::text, ',' order by id))
         from additional_files where application_id = ${applicationId})
    ) as stamp`.execute(db);
  return rows[0]?.stamp ?? '';
}
