import { sql, type Kysely } from 'kysely';
import type { BundleAdditionalFile } from '../../src/domain/bundle/manifest.ts';
import type { Schema } from '../db/schema.ts';
import { segment } from './bundlePaths.ts';
import { storedFiles } from './fileParts.ts';
import type { ZipOutput } from './zipOutput.ts';

/** Additional files a backup reads the description of per statement; their contents are read a few at a time. */
const FILES_PAGE = 500;

/** The additional files a backup keeps, a page at a time in the order of their creation. */
async function* additionalFilePages(db: Kysely<Schema>, applicationId: string) {
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    let page = db
      .selectFrom('additional_files as a')
      .leftJoin('users as o', 'o.id', 'a.owner_id')
      .select([
        'a.id',
        'a.file_type',
        'a.file_name',
        'a.content_type',
        'a.size',
        'a.content_id as contentId',
        'a.comment',
        'a.fields',
        'a.associates',
        'a.for_application',
        sql<string | null>`coalesce(a.original_owner, o.login)`.as('owner_login'),
        'a.created_at',
        // Exact to the microsecond, where a date is to the millisecond: the next page starts right after it.
        sql<string>`a.created_at::text`.as('created_key'),
        'a.updated_at',
      ])
      .where('a.application_id', '=', applicationId)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .limit(FILES_PAGE);
    if (after)
      page = page.where(sql<boolean>`(a.created_at, a.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
    const files = await page.execute();
    if (files.length > 0) yield files;
    if (files.length < FILES_PAGE) return;
    const last = files[files.length - 1]!;
    after = { createdAt: last.created_key, id: last.id };
  }
}

/** The bytes of the additional files a backup keeps, for the estimate of its size. */
export async function additionalFilesBytes(db: Kysely<Schema>, applicationId: string): Promise<number> {
  const total = await db
    .selectFrom('additional_files')
    .select((eb) => eb.fn.sum<number>('size').as('bytes'))
    .where('application_id', '=', applicationId)
    .executeTakeFirst();
  return Number(total?.bytes ?? 0);
}

/** Every additional file of the application with its form values, associations and owner. */
export async function* backupAdditionalFiles(
  zip: ZipOutput,
  db: Kysely<Schema>,
  applicationId: string,
): AsyncGenerator<Uint8Array, BundleAdditionalFile[]> {
  const additionalFiles: BundleAdditionalFile[] = [];
  for await (const page of additionalFilePages(db, applicationId)) {
    for await (const [stored, content] of storedFiles(db, page)) {
      const path = `additional-files/${segment(stored.file_type)}/${stored.id}/${segment(stored.file_name)}`;
      const file = yield* zip.add(path, content);
      additionalFiles.push({
        ...file,
        fileType: stored.file_type,
        fileName: stored.file_name,
        contentType: stored.content_type,
        comment: stored.comment,
        fields: stored.fields,
        associates: stored.associates,
        forApplication: stored.for_application,
        owner: stored.owner_login,
        createdAt: stored.created_at.toISOString(),
        updatedAt: stored.updated_at.toISOString(),
      });
    }
  }
  return additionalFiles;
}
