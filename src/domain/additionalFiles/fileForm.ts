import type { AdditionalFileType } from '../configuration/model';
import type { StoredRow } from '../csv/types';
import type { DomainError } from '../errors';
import { checkFormFields, type FormFieldProblem } from '../forms/checkFormFields';
import {
  additionalFileNameKey,
  isRestorableAdditionalFileName,
  isValidAdditionalFileName,
  normalizeAdditionalFileName,
} from './fileName';

/** Comments say what a document is; the spec gives no bound, this one keeps them to a paragraph. */
export const MAX_ADDITIONAL_FILE_COMMENT = 1000;

/** What the additional-file form holds, on the device and as the server receives it. */
export interface AdditionalFileFormInput {
  fields: Record<string, unknown>;
  comment: string;
  fileName: string;
  /** A file is chosen (on the device) or sent (on the server). */
  hasFile: boolean;
  /** Creation: there is no stored file to keep. */
  isNew: boolean;
  /**
   * The name of the file being edited, as stored: kept as it is, it passes under the rule it was stored with (a
   * name beginning with a dot, or a device name, stored before they were refused), so that its other fields can
   * still be edited.
   */
  storedFileName?: string;
}

export type AdditionalFileFormProblem = DomainError<
  'ADDITIONAL_FILE_REQUIRED' | 'INVALID_ADDITIONAL_FILE_NAME' | 'ADDITIONAL_FILE_COMMENT_REQUIRED' | 'COMMENT_TOO_LONG'
>;

export type AdditionalFileFormCheck =
  | { ok: true; values: Record<string, string>; fileName: string; comment: string }
  | { ok: false; fieldProblems: FormFieldProblem[]; problems: AdditionalFileFormProblem[] };

/**
 * The form of an additional file (spec §5): the type's format fields checked with their checkers, a comment
 * (required), a valid file name, and a file when the additional file is new. The device runs it to enable
 * Submit; the server runs it again on what it receives.
 */
export function checkAdditionalFileForm(
  type: AdditionalFileType,
  input: AdditionalFileFormInput,
  references?: (name: string) => readonly StoredRow[] | undefined,
): AdditionalFileFormCheck {
  const fields = checkFormFields(type.fields, input.fields, references);
  const problems: AdditionalFileFormProblem[] = [];
  if (input.isNew && !input.hasFile) problems.push({ code: 'ADDITIONAL_FILE_REQUIRED', params: {} });
  const fileName = normalizeAdditionalFileName(input.fileName);
  const keptAsStored = input.storedFileName !== undefined && fileName === input.storedFileName;
  if (keptAsStored ? !isRestorableAdditionalFileName(fileName) : !isValidAdditionalFileName(fileName))
    problems.push({ code: 'INVALID_ADDITIONAL_FILE_NAME', params: { fileName } });
  const comment = input.comment.trim();
  if (comment === '') problems.push({ code: 'ADDITIONAL_FILE_COMMENT_REQUIRED', params: {} });
  if (comment.length > MAX_ADDITIONAL_FILE_COMMENT)
    problems.push({ code: 'COMMENT_TOO_LONG', params: { max: MAX_ADDITIONAL_FILE_COMMENT } });
  if (!fields.ok || problems.length) return { ok: false, fieldProblems: fields.ok ? [] : fields.problems, problems };
  return { ok: true, values: fields.values, fileName, comment };
}

/** Two files of one type may not share a name (`additionalFileNameKey`). */
export const sameAdditionalFileName = (a: string, b: string) => additionalFileNameKey(a) === additionalFileNameKey(b);

/** The stored file that already holds this name, other than the one being edited. */
export function fileNameTakenBy<T extends { id: string; fileName: string }>(
  files: readonly T[],
  fileName: string,
  ownId: string | null,
): T | undefined {
  return files.find((file) => file.id !== ownId && sameAdditionalFileName(file.fileName, fileName));
}
