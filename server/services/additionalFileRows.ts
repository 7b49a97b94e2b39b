import { type Associates } from '../../src/domain/additionalFiles/associates.ts';
import { CHARTER_TYPES, isCharterType } from '../../src/domain/applications/charter.ts';
import { FILE_OPERATIONS } from '../../src/domain/additionalFiles/authorization.ts';
import type { AdditionalFileType } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { holds, mayDelete, mayEdit, type FileAccess } from './additionalFileRights.ts';
import { type AdditionalFile, type TypeRights } from '../../src/contract/additionalFiles.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';

const COLUMNS = [
  'f.id',
  'f.file_type',
  'f.file_name',
  'f.content_type',
  'f.size',
  'f.content_id',
  'f.comment',
  'f.fields',
  'f.associates',
  'f.for_application',
  'f.owner_id',
  'f.created_at',
  'f.updated_at',
  'u.login as owner_login',
  'changer.login as updated_by_login',
  'f.original_owner',
] as const;

/** The application's files (never the charter, which has its own calls), without their bytes. */
export function filesOf(ctx: ServerContext, application: ApplicationRow) {
  return ctx.db
    .selectFrom('additional_files as f')
    .leftJoin('users as u', 'u.id', 'f.owner_id')
    .leftJoin('users as changer', 'changer.id', 'f.updated_by')
    .select(COLUMNS)
    .where('f.application_id', '=', application.id)
    .where('f.file_type', 'not in', CHARTER_TYPES);
}

export type FileRow = Awaited<ReturnType<ReturnType<typeof filesOf>['executeTakeFirstOrThrow']>>;

export function viewOf(row: FileRow, access: FileAccess): AdditionalFile {
  return {
    id: row.id,
    fileType: row.file_type,
    fileName: row.file_name,
    size: row.size,
    contentType: row.content_type,
    comment: row.comment,
    user: row.owner_id,
    ownerLogin: row.owner_login,
    updatedByLogin: row.updated_by_login,
    originalOwner: row.original_owner,
    createDate: row.created_at.toISOString(),
    updateDate: row.updated_at.toISOString(),
    forApplication: row.for_application,
    associates: row.associates as Associates,
    additionalBinaryFileForm: row.fields,
    mayEdit: mayEdit(access, row),
    mayDelete: mayDelete(access, row),
  };
}

export const typeRightsOf = (access: FileAccess, fileType: string): TypeRights =>
  Object.fromEntries(FILE_OPERATIONS.map((operation) => [operation, holds(access, operation, fileType)])) as TypeRights;

/** A type of the configuration; the charter's type is refused by name (it is uploaded through its own call). */
export function fileTypeOf(application: ApplicationRow, fileType: string): AdditionalFileType {
  if (isCharterType(fileType)) throw new Refusal('CHARTER_TYPE_RESERVED', { fileType });
  const type = application.model.additionalFiles.find((t) => t.name === fileType);
  if (!type) throw new Refusal('NO_SUCH_ADDITIONAL_FILE_TYPE', { name: application.name, fileType });
  return type;
}

export async function findFile(
  ctx: ServerContext,
  application: ApplicationRow,
  fileType: string,
  id: string,
): Promise<FileRow> {
  const row = isUuid(id)
    ? await filesOf(ctx, application).where('f.id', '=', id).where('f.file_type', '=', fileType).executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id });
  return row;
}
