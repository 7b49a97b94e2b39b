import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { storedFiles } from './fileParts.ts';

/** Versions a backup reads the description of per statement; their files are read a few at a time. */
const VERSIONS_PAGE = 500;

/** The deposited versions a backup keeps, a page at a time in the order of their creation (then of their ids). */
async function* versionPages(db: Kysely<Schema>, applicationId: string) {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    // The page first, by the index of the backup's order; then the people it names.
    let versions = db
      .selectFrom('deposit_files')
      .selectAll()
      .where('application_id', '=', applicationId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(VERSIONS_PAGE);
    if (after)
      versions = versions.where(sql<boolean>`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
    const page = db
      .selectFrom(versions.as('f'))
      .leftJoin('users as c', 'c.id', 'f.created_by')
      .leftJoin('users as p', 'p.id', 'f.published_by')
      .select([
        'f.id',
        'f.data_name',
        'f.file_name',
        'f.size',
        'f.row_count',
        'f.comment',
        'f.scope',
        'f.period_from',
        'f.period_to',
        'f.created_at',
        // Exact to the microsecond, where a date is to the millisecond: the next page starts right after it.
        sql<string>`f.created_at::text`.as('created_key'),
        'f.published',
        'f.published_at',
        // Who did it in the application a restored version came from, else the account.
        sql<string | null>`coalesce(f.original_depositor, c.login)`.as('created_login'),
        sql<string | null>`coalesce(f.original_publisher, p.login)`.as('published_login'),
      ])
      .orderBy('f.created_at')
      .orderBy('f.id');
    const read = await page.execute();
    if (read.length > 0) yield read;
    if (read.length < VERSIONS_PAGE) return;
    const last = read[read.length - 1]!;
    after = { createdAt: last.created_key, id: last.id };
  }
}

/**
 * Each version a backup keeps with its file's bytes, in the backup's order: the versions a page at a time, the
 * small files several to a statement as the additional files are (`storedFiles`); each file is to be read before
 * the next version is asked for.
 */
export async function* backupVersions(db: Kysely<Schema>, applicationId: string) {
  // The embedded database never analyzes a table by itself, and no write refreshes the figures of the versions (a
  // deposit adds one, a restore many): without them the planner takes an application's versions for a handful and
  // sorts them all again for each page instead of walking the index of the backup's order. ANALYZE reads a sample
  // of bounded size, little beside a backup.
  await sql`analyze deposit_files`.execute(db);
  for await (const page of versionPages(db, applicationId))
    yield* storedFiles(
      db,
      page.map((version) => ({ ...version, contentId: version.id })),
    );
}

/** The bytes of every version of an application, for the backup's estimated size. */
export async function versionsBytes(db: Kysely<Schema>, applicationId: string): Promise<number> {
  const total = await db
    .selectFrom('deposit_files')
    .select((eb) => eb.fn.sum<number>('size').as('bytes'))
    .where('application_id', '=', applicationId)
    .executeTakeFirst();
  return Number(total?.bytes ?? 0);
}
