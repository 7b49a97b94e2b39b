import type { FilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { requireFileReader } from './additionalFileRights.ts';
import { ZipOutput } from './zipOutput.ts';
import { storedFile } from './fileParts.ts';
import { viewOf, type FileRow } from './additionalFileRows.ts';
import { selectFiles } from './additionalFileSelection.ts';

/* A selection of additional files as one zip, streamed. */

const stillStored = async (ctx: ServerContext, file: FileRow) =>
  (await ctx.db.selectFrom('additional_files').select('id').where('id', '=', file.id).executeTakeFirst()) !== undefined;

/**
 * The selected files as a zip (additionalFile.zip), written as it is sent: one file's bytes are read at a time.
 * Each file sits under its type's folder; `additionalFiles.json` describes them (form values, comment, owner).
 */
export async function additionalFilesZip(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  query: FilesQuery,
): Promise<AsyncIterable<Uint8Array>> {
  const access = await requireFileReader(ctx, user, application);
  const rows = await selectFiles(ctx, application, query);
  if (rows.length === 0) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id: query.uuids.join(',') });
  const description = rows.map((row) => {
    const { mayEdit: _edit, mayDelete: _delete, ...view } = viewOf(row, access);
    return { ...view, path: `${row.file_type}/${row.file_name}` };
  });
  return (async function* () {
    const zip = new ZipOutput();
    const described: typeof description = [];
    for (const [index, row] of rows.entries()) {
      // A file deleted while the zip is being written is left out, and not described, rather than cutting the zip.
      if (!(await stillStored(ctx, row))) continue;
      yield* zip.add(description[index]!.path, storedFile(ctx.db, row.content_id, row.size));
      described.push(description[index]!);
    }
    yield* zip.add('additionalFiles.json', [`${JSON.stringify(described, null, 2)}\n`]);
    yield* zip.end();
  })();
}
