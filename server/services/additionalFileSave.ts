import { randomUUID } from 'node:crypto';
import { normalizeAssociates } from '../../src/domain/additionalFiles/associates.ts';
import { checkAdditionalFileForm, fileNameTakenBy } from '../../src/domain/additionalFiles/fileForm.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import type { UploadForm } from '../http/readUpload.ts';
import { readJsonParameter } from '../../src/contract/jsonParameter.ts';
import { holds, mayEdit, requireFileReader } from './additionalFileRights.ts';
import { FileSaveParamsSchema, type FileSaveParams } from '../../src/contract/additionalFiles.ts';
import { fieldReferences, fileTypeOf, findFile } from './additionalFiles.ts';
import { writeFileParts } from './fileParts.ts';

/* Saving an additional file: its form, its links to data, its bytes, checked whole before one transaction writes. */

/** The `params` of the upload form (api.md §10 CreateAdditionalFileRequest); a part out of shape is its reason. */
function readParams(text: string | undefined): FileSaveParams {
  const reading = readJsonParameter(FileSaveParamsSchema, text);
  if (reading.ok) return reading.value ?? {};
  const part = reading.reason === 'notJson' ? 'json' : reading.path?.split('/')[1];
  throw new Refusal('BAD_ADDITIONAL_FILE_PARAMS', { reason: part || 'object' });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Creates or updates an additional file (multipart: `params` JSON, and `file`, optional on update). The caller
 * must be able to deposit files of the type before the body is read; an update also needs the right to change
 * that file. Everything is checked before one transaction writes: a refused upload leaves nothing behind.
 */
export async function saveAdditionalFile(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  readForm: () => Promise<UploadForm>,
) {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  if (!holds(access, 'depot', type.name) && !holds(access, 'admin', type.name))
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT', { fileType: type.name });
  const form = await readForm();
  const params = readParams(form.fields.params);
  if ((params.fileType ?? type.name) !== type.name)
    throw new Refusal('BAD_ADDITIONAL_FILE_PARAMS', { reason: 'fileType' });
  const existing = params.id ? await findFile(ctx, application, type.name, params.id) : undefined;
  if (existing && !mayEdit(access, existing))
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_CHANGE', { fileName: existing.file_name });
  const file = form.file;
  if (file && file.bytes.byteLength === 0) throw new Refusal('EMPTY_FILE', { fileName: file.fileName });

  const references = await fieldReferences(ctx, application, type.fields);
  const checked = checkAdditionalFileForm(
    type,
    {
      fields: params.fields ?? {},
      comment: params.comment ?? form.fields.comment ?? '',
      fileName: params.fileName ?? file?.fileName ?? existing?.file_name ?? '',
      hasFile: file !== undefined,
      isNew: !existing,
    },
    (name) => references.get(name),
  );
  if (!checked.ok) {
    const [fieldProblem] = checked.fieldProblems;
    if (fieldProblem?.code === 'unknownFormField')
      throw new Refusal('UNKNOWN_ADDITIONAL_FILE_FIELD', {
        field: fieldProblem.field,
        problems: checked.fieldProblems,
      });
    if (fieldProblem) {
      throw new Refusal('INVALID_ADDITIONAL_FILE_FIELD', {
        field: fieldProblem.field,
        problem: fieldProblem.code,
        problemParams: fieldProblem.params,
        problems: checked.fieldProblems,
      });
    }
    throw new InvalidInput(checked.problems[0]);
  }
  const associates = normalizeAssociates(application.model, params.associates);
  if (!associates.ok) throw new InvalidInput(associates.problems[0], { problems: associates.problems });

  const id = existing?.id ?? randomUUID();
  const now = new Date();
  const values = {
    file_name: checked.fileName,
    comment: checked.comment,
    fields: JSON.stringify(checked.values),
    associates: JSON.stringify(associates.associates),
    for_application: params.forApplication === true,
    updated_at: now,
    ...(file ? { content_id: randomUUID(), size: file.bytes.byteLength, content_type: file.contentType } : {}),
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const names = await trx
        .selectFrom('additional_files')
        .select(['id', 'file_name'])
        .where('application_id', '=', application.id)
        .where('file_type', '=', type.name)
        .execute();
      if (
        fileNameTakenBy(
          names.map((n) => ({ id: n.id, fileName: n.file_name })),
          checked.fileName,
          existing?.id ?? null,
        )
      ) {
        throw new Refusal('ADDITIONAL_FILE_EXISTS', { name: checked.fileName });
      }
      // The replaced bytes' parts go once the row no longer names them (a trigger, migration 0020).
      if (file) {
        const parts = writeFileParts(trx, values.content_id!);
        await parts.add(file.bytes);
        await parts.end();
      }
      if (existing) {
        const updated = await trx
          .updateTable('additional_files')
          .set(values)
          .where('id', '=', id)
          .where('application_id', '=', application.id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id });
      } else {
        await trx
          .insertInto('additional_files')
          .values({
            id,
            application_id: application.id,
            file_type: type.name,
            owner_id: user.id,
            created_at: now,
            content_id: values.content_id!,
            size: file!.bytes.byteLength,
            content_type: file!.contentType,
            ...values,
          })
          .execute();
      }
    });
  } catch (error) {
    // Two uploads of one name at the same moment: the unique index stops the second.
    if (isUniqueViolation(error)) throw new Refusal('ADDITIONAL_FILE_EXISTS', { name: checked.fileName });
    throw error;
  }
  return { id, fileName: checked.fileName, created: !existing };
}
