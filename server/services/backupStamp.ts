import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** What a backup copies, as it stands: see `backupStamp`. */
export interface BackupStamp {
  /** The configuration version the application is at, and its model's. */
  configuration: string;
  /** Everything else the backup copies, as one text. */
  content: string;
  /** A large write of the embedded database is under way: part of its rows is in, and its entry's version not raised. */
  writing: boolean;
}

/**
 * What a backup copies, stamped: the application's configuration, each entry's write version (raised by every write
 * of its rows, a publication's included, when it ends), its deposited versions with whether each is published, its
 * additional files with their contents, and the large writes under way. A backup is read over minutes, a statement
 * at a time (the embedded database lends its one session to the other requests between them): a change meanwhile
 * may leave it holding a data row pointing to a reference row it lacks, rows of a configuration it does not hold, or
 * part of a write — a backup no restore accepts, found out when it is needed. Stamped before and again before the
 * manifest, it tells.
 */
export async function backupStamp(db: Kysely<Schema>, applicationId: string): Promise<BackupStamp> {
  const { rows } = await sql<{ configuration: string | null; content: string; writing: boolean }>`
    select
      (select version || ':' || model_version from applications where id = ${applicationId}) as configuration,
      concat_ws('|',
        (select string_agg(data_name || '=' || version, ',' order by data_name)
           from entry_counts where application_id = ${applicationId}),
        (select md5(string_agg(id::text || ':' || published::text, ',' order by id))
           from deposit_files where application_id = ${applicationId}),
        (select md5(string_agg(id::text || ':' || content_id::text || ':' || updated_at::text, ',' order by id))
           from additional_files where application_id = ${applicationId})
      ) as content,
      exists (select 1 from bulk_writes where application_id = ${applicationId}) as writing`.execute(db);
  const row = rows[0];
  return { configuration: row?.configuration ?? '', content: row?.content ?? '', writing: row?.writing ?? false };
}

/** The backup may be given as whole: nothing it copies changed since `before`, and no write is half done. */
export const unchangedSince = (before: BackupStamp, now: BackupStamp) =>
  !now.writing && now.configuration === before.configuration && now.content === before.content;

/** Thrown when a backup's content changed while it was read: the zip is left without its manifest. */
export class BackupChangedMeanwhile extends Error {
  override readonly name = 'BackupChangedMeanwhile';
  constructor(applicationName: string) {
    super(`${applicationName} changed while its backup was read: the backup is left without its manifest`);
  }
}
