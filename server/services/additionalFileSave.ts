import { additionalFileNameKey } from '../../src/domain/additionalFiles/fileName.ts';
import { randomUUID } from 'node:crypto';
import { normalizeAssociates } from '../../src/domain/additionalFiles/associates.ts';
import { checkAdditionalFileForm } from '../../src/domain/additionalFiles/fileForm.ts';
import { answeredProblems, budgetProblem } from '../../src/domain/forms/checkFormFields.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import type { KeptForm } from '../http/readUpload.ts';
import type { AdditionalFileType } from '../../src/domain/configuration/model.ts';
import { readJsonParameter } from '../../src/contract/jsonParameter.ts';
import { holds, mayEdit, requireFileReader, type FileAccess } from './additionalFileRights.ts';
import { rightsOf } from './authorizations.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { FileSaveParamsSchema, type FileSaveParams } from '../../src/contract/additionalFiles.ts';
import { fileTypeOf, findFile, type FileRow } from './additionalFileRows.ts';
import { formReferenceRows } from './formReferenceRows.ts';
import { discardRefusedParts, writeFileParts } from './fileParts.ts';
import { applying } from '../db/appliedWork.ts';

/*
 * Saving an additional file: its bytes written in parts as they arrive, then its form and links to data checked
 * before one transaction writes its row; a refusal removes the parts.
 */

/** The `params` of the upload form (api.md §10 CreateAdditionalFileRequest); a part out of shape is its reason. */
function readParams(text: string | undefined): FileSaveParams {
  const reading = readJsonParameter(FileSaveParamsSchema, text);
  if (reading.ok) return reading.value ?? {};
  const part = reading.reason === 'notJson' ? 'json' : reading.path?.split('/')[1];
  throw new Refusal('BAD_ADDITIONAL_FILE_PARAMS', { reason: part || 'object' });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** The file as it will be saved: its form checked, the row it replaces when an update. */
interface CheckedSave {
  existing?: FileRow;
  fileName: string;
  comment: string;
  values: Record<string, unknown>;
  associates: unknown;
  forApplication: boolean;
  /** The new bytes' size and type; absent on an update that keeps the stored file. */
  file?: { size: number; contentType: string };
}

/**
 * Creates or updates an additional file (multipart: `params` JSON, and `file`, optional on update). The caller
 * must be able to deposit files of the type before the body is read; an update also needs the right to change
 * that file. The file's parts are written while it arrives, under a new content id that only the row written last
 * makes the file's: a refused upload leaves nothing behind.
 */
export async function saveAdditionalFile(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  readForm: (keep: (bytes: AsyncIterable<Uint8Array>) => Promise<number>) => Promise<KeptForm<number>>,
) {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  if (!holds(access, 'depot', type.name) && !holds(access, 'admin', type.name))
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_DEPOSIT', { fileType: type.name });
  const contentId = randomUUID();
  const parts = writeFileParts(ctx.db, contentId, { asBulk: true });
  try {
    const form = await readForm((bytes) => parts.keep(bytes));
    const save = await checkSave(ctx, application, type, access, form, await rightsOf(ctx, user, application));
    const id = await writeFileRow(ctx, user, application, type, save, contentId);
    return { id, fileName: save.fileName, created: !save.existing };
  } catch (error) {
    await discardRefusedParts(ctx, parts, error);
    throw error;
  }
}

/** Checks the form against the type, the data it links to and the user's right to change the file it updates. */
async function checkSave(
  ctx: ServerContext,
  application: ApplicationRow,
  type: AdditionalFileType,
  access: FileAccess,
  form: KeptForm<number>,
  reader: Rights,
): Promise<CheckedSave> {
  const params = readParams(form.fields.params);
  if ((params.fileType ?? type.name) !== type.name)
    throw new Refusal('BAD_ADDITIONAL_FILE_PARAMS', { reason: 'fileType' });
  const existing = params.id ? await findFile(ctx, application, type.name, params.id) : undefined;
  if (existing && !mayEdit(access, existing))
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_CHANGE', { fileName: existing.file_name });
  const file = form.file;
  if (file && file.kept === 0) throw new Refusal('EMPTY_FILE', { fileName: file.fileName });

  const fields = params.fields ?? {};
  const references = await formReferenceRows(ctx, application, type.fields, fields, reader);
  const checked = checkAdditionalFileForm(
    type,
    {
      fields,
      comment: params.comment ?? form.fields.comment ?? '',
      fileName: params.fileName ?? file?.fileName ?? existing?.file_name ?? '',
      hasFile: file !== undefined,
      isNew: !existing,
      storedFileName: existing?.file_name,
    },
    references,
  );
  if (!checked.ok) {
    const spent = budgetProblem(checked.fieldProblems);
    if (spent) throw new Refusal('FORM_CHECK_BUDGET_EXCEEDED', { field: spent.field, ...spent.params });
    const [fieldProblem] = checked.fieldProblems;
    const answered = answeredProblems(checked.fieldProblems);
    if (fieldProblem?.code === 'unknownFormField')
      throw new Refusal('UNKNOWN_ADDITIONAL_FILE_FIELD', { field: fieldProblem.field, ...answered });
    if (fieldProblem) {
      throw new Refusal('INVALID_ADDITIONAL_FILE_FIELD', {
        field: fieldProblem.field,
        problem: fieldProblem.code,
        problemParams: fieldProblem.params,
        ...answered,
      });
    }
    throw new InvalidInput(checked.problems[0]);
  }
  const associates = normalizeAssociates(application.model, params.associates);
  if (!associates.ok) throw new InvalidInput(associates.problems[0], { problems: associates.problems });
  return {
    existing,
    fileName: checked.fileName,
    comment: checked.comment,
    values: checked.values,
    associates: associates.associates,
    forApplication: params.forApplication === true,
    ...(file ? { file: { size: file.kept, contentType: file.contentType } } : {}),
  };
}

/** Writes the file's row in one transaction, naming the parts written under `contentId` when it has new bytes. */
async function writeFileRow(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  type: AdditionalFileType,
  save: CheckedSave,
  contentId: string,
): Promise<string> {
  const { existing, file } = save;
  const id = existing?.id ?? randomUUID();
  const now = new Date();
  const values = {
    file_name: save.fileName,
    name_key: additionalFileNameKey(save.fileName),
    comment: save.comment,
    fields: JSON.stringify(save.values),
    associates: JSON.stringify(save.associates),
    for_application: save.forApplication,
    updated_at: now,
    updated_by: user.id,
    ...(file ? { content_id: contentId, size: file.size, content_type: file.contentType } : {}),
  };
  try {
    await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        // Two saves of names differing by case at the same moment: the second waits for the first, then sees its name.
        await trx.selectFrom('applications').select('id').where('id', '=', application.id).forUpdate().execute();
        const taken = await trx
          .selectFrom('additional_files')
          .select('id')
          .where('application_id', '=', application.id)
          .where('file_type', '=', type.name)
          .where('name_key', '=', values.name_key)
          .$if(existing !== undefined, (query) => query.where('id', '<>', existing!.id))
          .limit(1)
          .executeTakeFirst();
        if (taken) throw new Refusal('ADDITIONAL_FILE_EXISTS', { name: save.fileName });
        // The replaced bytes' parts go once the row no longer names them (a trigger, migration 0020).
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
              content_id: contentId,
              size: file!.size,
              content_type: file!.contentType,
              ...values,
            })
            .execute();
        }
      }),
    );
  } catch (error) {
    // Two uploads of one name at the same moment: the unique index stops the second.
    if (isUniqueViolation(error)) throw new Refusal('ADDITIONAL_FILE_EXISTS', { name: save.fileName });
    throw error;
  }
  return id;
}
