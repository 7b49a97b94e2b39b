import { sql } from 'kysely';
import type { FilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { mayDelete, requireFileReader } from './additionalFileRights.ts';
import { applying } from '../db/appliedWork.ts';
import { isEmptySelection, selectFiles } from './additionalFileSelection.ts';

/** Deletes the selected files, all or none: every one must be deletable by the caller. Answers their ids. */
export async function deleteAdditionalFiles(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  query: FilesQuery,
): Promise<string[]> {
  const access = await requireFileReader(ctx, user, application);
  if (isEmptySelection(query)) throw new Refusal('BAD_FILES_QUERY', { reason: 'emptySelection' });
  const rows = await selectFiles(ctx, application, query);
  if (rows.length === 0) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id: query.uuids.join(',') });
  const refused = rows.find((row) => !mayDelete(access, row));
  if (refused) throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_DELETE', { fileName: refused.file_name });
  const ids = rows.map((row) => row.id);
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      await trx
        .deleteFrom('additional_files')
        .where('application_id', '=', application.id)
        .where(sql<boolean>`id = any(${ids}::uuid[])`)
        .execute();
    }),
  );
  return ids;
}
