import { useMemo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import type { Associates } from '@/domain/additionalFiles/associates';
import { checkAdditionalFileForm, fileNameTakenBy } from '@/domain/additionalFiles/fileForm';
import { proposedAdditionalFileName } from '@/domain/additionalFiles/fileName';
import { entryTitleOf } from '@/domain/applications/summary';
import { withChoiceLabels } from '@/domain/forms/fieldChoices';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import type { StoredRow } from '@/domain/csv/types';
import { ApiError } from '@/lib/api/apiError';
import { describeProblem } from '@/lib/i18n/problems';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import { refusalText, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { fileSave } from '../api';
import { fieldTitle } from '../display';
import type { EditedFileSave } from './useEditedFileSave';
import type { FileFormData } from './useFileFormData';

/**
 * The file form's values, checked on the device by the server's rules as they are typed (a part shows its problem
 * once left), and its sending through the outbox; what the server still refuses is shown at the part it names.
 */
export function useFileForm(
  applicationName: string,
  model: ApplicationModel,
  type: AdditionalFileType,
  data: FileFormData,
  isNew: boolean,
  replaces?: EditedFileSave,
) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  // The form opens once the stored file (if any) is read: its values are the starting ones, unless a refused save
  // is reopened, whose values were the user's last word.
  const stored = data.file;
  const sent = replaces?.input;
  const [fields, setFields] = useState<Record<string, string>>(sent?.fields ?? stored?.additionalBinaryFileForm ?? {});
  const [comment, setComment] = useState(sent?.comment ?? stored?.comment ?? '');
  const [fileName, setFileName] = useState(sent?.fileName ?? stored?.fileName ?? '');
  const [forApplication, setForApplication] = useState(sent?.forApplication ?? stored?.forApplication ?? false);
  const [associates, setAssociates] = useState<Associates>(sent?.associates ?? stored?.associates ?? {});
  const [chosen, setChosen] = useState<File | null>(sent?.file ?? null);
  const [replacing, setReplacing] = useState(replaces);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);

  const references = useMemo(() => {
    const rows = new Map<string, StoredRow[]>();
    for (const field of type.fields) {
      const known = data.choices[field.name];
      if (field.checker?.kind === 'reference' && known)
        rows.set(
          field.checker.reference,
          known.map((c) => ({ naturalKey: c.naturalKey, hierarchicalKey: c.naturalKey, values: {} })),
        );
    }
    return rows;
  }, [type.fields, data.choices]);
  const checked = checkAdditionalFileForm(
    type,
    { fields, comment, fileName, hasFile: chosen !== null, isNew, storedFileName: data.file?.fileName },
    (name) => references.get(name),
  );
  const taken =
    data.names && fileName.trim() !== ''
      ? fileNameTakenBy(
          data.names.map((name) => ({
            id: data.file && name === data.file.fileName ? data.file.id : name,
            fileName: name,
          })),
          fileName,
          data.file?.id ?? null,
        )
      : undefined;
  const valid = checked.ok && !taken;
  const component = (name: string) =>
    fieldTitle(
      type.fields.find((f) => f.name === name)!,
      i18n.locale,
      model.defaultLanguage,
    );
  // A problem names the reference a field reads by its title, as the field's hint does.
  const entryTitle = (name: string) => entryTitleOf(model, name, i18n.locale);

  const fieldError = (name: string) => {
    if (serverErrors[name]) return serverErrors[name];
    if (!touched.has(name) || checked.ok) return undefined;
    const problem = checked.fieldProblems.find((p) => p.field === name);
    return problem
      ? describeProblem(
          i18n,
          {
            code: problem.code,
            params: { ...withChoiceLabels(problem.params, data.choices[name]), component: component(name) },
          },
          entryTitle,
        )
      : undefined;
  };
  const partError = (code: string, key: string) => {
    if (serverErrors[key]) return serverErrors[key];
    if (!touched.has(key) || checked.ok) return undefined;
    const problem = checked.problems.find(
      (p) => p.code === code || (key === 'comment' && p.code === 'COMMENT_TOO_LONG'),
    );
    return problem ? translateServerError(i18n, new ApiError(400, problem.code, problem.params)) : undefined;
  };
  const nameError = taken
    ? translateServerError(i18n, new ApiError(409, 'ADDITIONAL_FILE_EXISTS', { name: fileName.trim() }))
    : partError('INVALID_ADDITIONAL_FILE_NAME', 'fileName');
  const touch = (name: string) => setTouched((set) => (set.has(name) ? set : new Set([...set, name])));
  const clearServerError = (name: string) =>
    setServerErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([key]) => key !== name)));

  function changeField(name: string, value: string) {
    setFields((current) => ({ ...current, [name]: value }));
    clearServerError(name);
  }

  function changeFileName(value: string) {
    setFileName(value);
    clearServerError('fileName');
  }

  function choose(file: File | null) {
    setChosen(file);
    touch('file');
    if (file && (fileName.trim() === '' || isNew)) setFileName(proposedAdditionalFileName(file.name));
  }

  const listPath = {
    to: '/applications/$applicationName/additionalFiles/$additionalFileName',
    params: { applicationName, additionalFileName: type.name },
  } as const;

  async function submit() {
    if (!checked.ok) return;
    setProgress(0);
    const outcome = await submitChange(
      fileSave(applicationName, type.name, {
        id: data.file?.id ?? null,
        fileName: checked.fileName,
        comment: checked.comment,
        fields: checked.values,
        associates,
        forApplication,
        file: chosen,
      }),
      {
        onUploadProgress: (sentBytes, total) => setProgress(total ? sentBytes / total : null),
        replaces: replacing?.itemId,
      },
    );
    setProgress(null);
    setReplacing(undefined);
    if (outcome.status === 'done') {
      showToast('success', t`The file ${checked.fileName} has been saved.`);
      return navigate(listPath);
    }
    if (outcome.status === 'queued') {
      toastSavedOnDevice(i18n);
      return navigate(listPath);
    }
    const { code, params } = outcome.error;
    const message = refusalText(i18n, outcome.error);
    const values = params as Record<string, unknown>;
    if (
      (code === 'INVALID_ADDITIONAL_FILE_FIELD' || code === 'UNKNOWN_ADDITIONAL_FILE_FIELD') &&
      typeof values.field === 'string'
    ) {
      const field = type.fields.find((f) => f.name === values.field);
      const detail =
        field && typeof values.problem === 'string'
          ? describeProblem(
              i18n,
              {
                code: values.problem,
                params: {
                  ...withChoiceLabels(
                    (values.problemParams ?? {}) as Record<string, unknown>,
                    data.choices[field.name],
                  ),
                  component: fieldTitle(field, i18n.locale, model.defaultLanguage),
                },
              },
              entryTitle,
            )
          : message;
      setServerErrors((errors) => ({ ...errors, [values.field as string]: detail }));
    } else if (code === 'ADDITIONAL_FILE_EXISTS' || code === 'INVALID_ADDITIONAL_FILE_NAME') {
      setServerErrors((errors) => ({ ...errors, fileName: message }));
    }
    showToast('error', message);
  }

  return {
    replacing,
    fields,
    changeField,
    comment,
    setComment,
    fileName,
    changeFileName,
    forApplication,
    setForApplication,
    associates,
    setAssociates,
    chosen,
    choose,
    touch,
    fieldError,
    partError,
    nameError,
    valid,
    progress,
    listPath,
    submit,
  };
}

export type FileForm = ReturnType<typeof useFileForm>;
