import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { requireFileReader } from './additionalFileRights.ts';
import { rightsOf } from './authorizations.ts';
import { type AdditionalFileDetail } from '../../src/contract/additionalFiles.ts';
import { storedFile } from './fileParts.ts';
import { fieldChoicesOf, valuesIn } from './additionalFileChoices.ts';
import { fileTypeOf, findFile, viewOf } from './additionalFileRows.ts';

/** One file with its form values and its type's form. */
export async function getAdditionalFile(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  id: string,
  locale: string,
): Promise<AdditionalFileDetail> {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  const row = await findFile(ctx, application, type.name, id);
  return {
    ...viewOf(row, access),
    format: { i18n: type.i18n, fields: type.fields },
    ...(await fieldChoicesOf(ctx, application, type, locale, valuesIn([row]), await rightsOf(ctx, user, application))),
  };
}

/** The bytes of one file, read slice by slice as they are sent (files reach 100 MB). */
export async function additionalFileContent(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  id: string,
) {
  const type = fileTypeOf(application, fileType);
  await requireFileReader(ctx, user, application);
  const row = await findFile(ctx, application, type.name, id);
  return {
    fileName: row.file_name,
    contentType: row.content_type,
    size: row.size,
    content: storedFile(ctx.db, row.content_id, row.size),
  };
}
