import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Send, X } from 'lucide-react';
import type { Associates } from '@/domain/additionalFiles/associates';
import { checkAdditionalFileForm, fileNameTakenBy, MAX_ADDITIONAL_FILE_COMMENT } from '@/domain/additionalFiles/fileForm';
import { proposedAdditionalFileName } from '@/domain/additionalFiles/fileName';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType } from '@/domain/configuration/model';
import type { StoredRow } from '@/domain/csv/types';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Progress } from '@/components/ui/progress';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api/apiError';
import { describeProblem } from '@/lib/i18n/problems';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { showToast } from '@/lib/toast';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { outbox } from '@/offline/outboxInstance';
import { fetchOverview, fileContentHref, fileSave, type FilesOverview } from '../api';
import { fieldTitle, formatSize } from '../display';
import { useFileFormData } from '../hooks/useFileFormData';
import { AssociationPanel, AssociationUnavailable } from './AssociationPanel';
import { Panel } from './Panel';

/**
 * Creation ('new') or consultation and modification of an additional file: the type's format fields checked on
 * the device by the same rules as the server, a comment, the file and its name, and the data it is attached to.
 * Submit is enabled only when all of it is valid; the upload goes through the outbox (kept while offline).
 */
export function FileFormPage({ application, type, fileId }: { application: LoadedApplication; type: AdditionalFileType; fileId: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const isNew = fileId === 'new';
  const data = useFileFormData(view.name, model, type, fileId, i18n.locale);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [comment, setComment] = useState('');
  const [fileName, setFileName] = useState('');
  const [forApplication, setForApplication] = useState(false);
  const [associates, setAssociates] = useState<Associates>({});
  const [chosen, setChosen] = useState<File | null>(null);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [scopes, setScopes] = useState<FilesOverview['referenceScopes'] | null | 'unavailable'>(null);

  useEffect(() => {
    if (!data.file) return;
    setFields(data.file.additionalBinaryFileForm);
    setComment(data.file.comment);
    setFileName(data.file.fileName);
    setForApplication(data.file.forApplication);
    setAssociates(data.file.associates);
  }, [data.file]);

  const editable = isNew || (data.file?.mayEdit ?? false);
  const references = useMemo(() => {
    const rows = new Map<string, StoredRow[]>();
    for (const field of type.fields) {
      const known = data.choices[field.name];
      if (field.checker?.kind === 'reference' && known) rows.set(field.checker.reference, known.map((c) => ({ naturalKey: c.naturalKey, hierarchicalKey: c.naturalKey, values: {} })));
    }
    return rows;
  }, [type.fields, data.choices]);
  const checked = checkAdditionalFileForm(type, { fields, comment, fileName, hasFile: chosen !== null, isNew }, (name) => references.get(name));
  const taken =
    data.names && fileName.trim() !== ''
      ? fileNameTakenBy(
          data.names.map((name) => ({ id: data.file && name === data.file.fileName ? data.file.id : name, fileName: name })),
          fileName,
          data.file?.id ?? null,
        )
      : undefined;
  const valid = checked.ok && !taken;

  const fieldError = (name: string) => {
    if (serverErrors[name]) return serverErrors[name];
    if (!touched.has(name) || checked.ok) return undefined;
    const problem = checked.fieldProblems.find((p) => p.field === name);
    return problem ? describeProblem(i18n, { code: problem.code, params: { ...problem.params, component: fieldTitle(type.fields.find((f) => f.name === name)!, i18n.locale, model.defaultLanguage) } }) : undefined;
  };
  const partError = (code: string, key: string) => {
    if (serverErrors[key]) return serverErrors[key];
    if (!touched.has(key) || checked.ok) return undefined;
    const problem = checked.problems.find((p) => p.code === code || (key === 'comment' && p.code === 'COMMENT_TOO_LONG'));
    return problem ? translateServerError(i18n, new ApiError(400, problem.code, problem.params)) : undefined;
  };
  const nameError = taken ? translateServerError(i18n, new ApiError(409, 'ADDITIONAL_FILE_EXISTS', { name: fileName.trim() })) : partError('INVALID_ADDITIONAL_FILE_NAME', 'fileName');
  const touch = (name: string) => setTouched((set) => (set.has(name) ? set : new Set([...set, name])));
  const clearServerError = (name: string) => setServerErrors(({ [name]: _dropped, ...others }) => others);

  function choose(file: File | null) {
    setChosen(file);
    touch('file');
    if (file && (fileName.trim() === '' || isNew)) setFileName(proposedAdditionalFileName(file.name));
  }

  function loadScopes(open: boolean) {
    if (!open || scopes !== null) return;
    fetchOverview(view.name, true).then(
      (overview) => setScopes(overview.value.referenceScopes ?? {}),
      () => setScopes('unavailable'),
    );
  }

  const listPath = { to: '/applications/$applicationName/additionalFiles/$additionalFileName', params: { applicationName: view.name, additionalFileName: type.name } } as const;

  async function submit() {
    if (!checked.ok) return;
    setProgress(0);
    const outcome = await outbox.submit(
      fileSave(view.name, type.name, {
        id: data.file?.id ?? null,
        fileName: checked.fileName,
        comment: checked.comment,
        fields: checked.values,
        associates,
        forApplication,
        file: chosen,
      }),
      { onUploadProgress: (sent, total) => setProgress(total ? sent / total : null) },
    );
    setProgress(null);
    if (outcome.status === 'done') {
      showToast('success', t`The file ${checked.fileName} has been saved.`);
      return navigate(listPath);
    }
    if (outcome.status === 'queued') {
      showToast('info', t`Saved on this device.`, t`It will be sent to the server as soon as the network is back.`);
      return navigate(listPath);
    }
    const { code, params, status } = outcome.error;
    const message = translateServerError(i18n, new ApiError(status, code, params));
    const values = params as Record<string, unknown>;
    if ((code === 'INVALID_ADDITIONAL_FILE_FIELD' || code === 'UNKNOWN_ADDITIONAL_FILE_FIELD') && typeof values.field === 'string') {
      const field = type.fields.find((f) => f.name === values.field);
      const detail =
        field && typeof values.problem === 'string'
          ? describeProblem(i18n, { code: values.problem, params: { ...(values.problemParams as Record<string, unknown>), component: fieldTitle(field, i18n.locale, model.defaultLanguage) } })
          : message;
      setServerErrors((errors) => ({ ...errors, [values.field as string]: detail }));
    } else if (code === 'ADDITIONAL_FILE_EXISTS' || code === 'INVALID_ADDITIONAL_FILE_NAME') {
      setServerErrors((errors) => ({ ...errors, fileName: message }));
    }
    showToast('error', message);
  }

  const title = text(type.i18n.title, type.name);
  const appTitle = text(view.title, view.name);
  const heading = isNew ? t`New file: ${title}` : editable ? t`Modify ${data.file?.fileName ?? ''}` : (data.file?.fileName ?? '');
  if (data.error) return <Alert variant="destructive">{translateServerError(i18n, data.error)}</Alert>;
  if (!data.ready) return null;

  return (
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Additional files`, href: `/applications/${view.name}/additionalFiles` },
          { label: title, href: `/applications/${view.name}/additionalFiles/${type.name}` },
          { label: isNew ? t`New file` : (data.file?.fileName ?? '') },
        ]}
      />
      <PageHeader
        title={heading}
        description={text(type.i18n.description) || undefined}
        actions={
          data.file ? (
            <Button asChild variant="outline">
              <a href={fileContentHref(view.name, data.file)} download={data.file.fileName}>
                <Download aria-hidden />
                <Trans>Download</Trans>
              </a>
            </Button>
          ) : null
        }
      />
      {data.offline ? <Alert variant="warning">{t`The server cannot be reached: the file will be kept on this device and sent once the network is back.`}</Alert> : null}
      {!editable ? <Alert variant="info">{t`You may consult this file but not modify it.`}</Alert> : null}

      <form
        className="grid grid-cols-1 gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <section className="grid gap-4 rounded-lg border border-border bg-card p-4" aria-labelledby="format-fields">
          <h2 id="format-fields" className="text-lg font-semibold">
            <Trans>Description</Trans>
          </h2>
          <div className="grid items-start gap-4 sm:grid-cols-2">
            {type.fields.map((field) => {
              const label = `${fieldTitle(field, i18n.locale, model.defaultLanguage)}${field.required ? ' *' : ''}`;
              const options = field.checker?.kind === 'reference' ? data.choices[field.name] : undefined;
              const referenceTitle = field.checker?.kind === 'reference' ? text(model.data.find((d) => d.name === (field.checker as { reference: string }).reference)?.i18n.title, field.checker.reference) : '';
              const hint =
                text(field.i18n.description) ||
                (field.checker?.kind === 'date' ? field.checker.pattern : undefined) ||
                (field.checker?.kind === 'reference' && !options ? t`The code of a row of ${referenceTitle}.` : undefined);
              const value = fields[field.name] ?? '';
              const change = (next: string) => {
                setFields((current) => ({ ...current, [field.name]: next }));
                clearServerError(field.name);
              };
              return (
                <FormField key={field.name} label={label} hint={hint} error={fieldError(field.name)}>
                  {options ? (
                    <NativeSelect value={value} disabled={!editable} onChange={(event) => change(event.target.value)} onBlur={() => touch(field.name)} data-field={field.name}>
                      <option value="">{t`(none)`}</option>
                      {options.map((option) => (
                        <option key={option.naturalKey} value={option.naturalKey}>
                          {option.label}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : (
                    <Input
                      value={value}
                      disabled={!editable}
                      inputMode={field.checker?.kind === 'integer' || field.checker?.kind === 'float' ? 'decimal' : undefined}
                      onChange={(event) => change(event.target.value)}
                      onBlur={() => touch(field.name)}
                      data-field={field.name}
                    />
                  )}
                </FormField>
              );
            })}
          </div>
          <FormField label={`${t`Comment`} *`} error={partError('ADDITIONAL_FILE_COMMENT_REQUIRED', 'comment')}>
            <Textarea value={comment} disabled={!editable} maxLength={MAX_ADDITIONAL_FILE_COMMENT} rows={3} onChange={(event) => setComment(event.target.value)} onBlur={() => touch('comment')} />
          </FormField>
        </section>

        <Panel title={<Trans>File</Trans>} open={isNew}>
            {data.file ? (
              <p className="text-sm text-muted-foreground">
                <Trans>
                  Stored file: {data.file.fileName}, {formatSize(i18n, data.file.size)}. Choose another file only to replace it.
                </Trans>
              </p>
            ) : null}
            {editable ? (
              <FormField label={isNew ? `${t`File to send`} *` : t`Replace by`} hint={chosen ? formatSize(i18n, chosen.size) : undefined} error={partError('ADDITIONAL_FILE_REQUIRED', 'file')}>
                <FileInput onChange={(event) => choose(event.target.files?.[0] ?? null)} />
              </FormField>
            ) : null}
            <FormField label={`${t`File name`} *`} hint={t`Letters, digits, _, -, . and spaces.`} error={nameError}>
              <Input
                value={fileName}
                disabled={!editable}
                onChange={(event) => {
                  setFileName(event.target.value);
                  clearServerError('fileName');
                }}
                onBlur={() => touch('fileName')}
              />
            </FormField>
            <div className="flex min-h-11 items-center gap-3">
              <Switch id="for-application" checked={forApplication} disabled={!editable} onCheckedChange={setForApplication} />
              <Label htmlFor="for-application">
                <Trans>For the whole application</Trans>
              </Label>
            </div>
        </Panel>

        <Panel title={<Trans>Associated data</Trans>} onToggle={loadScopes}>
          {scopes === 'unavailable' ? (
            <AssociationUnavailable />
          ) : (
            <AssociationPanel model={model} referenceScopes={scopes} associates={associates} disabled={!editable} onChange={setAssociates} />
          )}
        </Panel>

        {progress !== null ? (
          <div className="grid gap-1" data-testid="upload-progress">
            <Progress value={progress} label={t`Sending the file`} />
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {t`Sending…`} {Math.round(progress * 100)} %
            </p>
          </div>
        ) : null}
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild variant="outline">
            <Link {...listPath}>
              <X aria-hidden />
              <Trans>Cancel</Trans>
            </Link>
          </Button>
          {editable ? (
            <Button type="submit" disabled={!valid || progress !== null}>
              <Send aria-hidden />
              {isNew ? <Trans>Add the file</Trans> : <Trans>Save the changes</Trans>}
            </Button>
          ) : null}
          {editable && !valid ? (
            <p className="text-sm text-muted-foreground">
              <Trans>Fill in the required fields (*) with valid values to send the file.</Trans>
            </p>
          ) : null}
        </div>
      </form>
    </div>
  );
}
