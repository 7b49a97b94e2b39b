import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Send, X } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType } from '@/domain/configuration/model';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/lib/useApplicationModel';
import { fileContentHref } from '../api';
import { useFileForm } from '../hooks/useFileForm';
import { useFileFormData } from '../hooks/useFileFormData';
import { AssociatedDataPanel } from './AssociatedDataPanel';
import { DescriptionSection } from './DescriptionSection';
import { FilePanel } from './FilePanel';

/**
 * Creation ('new') or consultation and modification of an additional file: the type's format fields checked on
 * the device by the same rules as the server, a comment, the file and its name, and the data it is attached to.
 * Submit is enabled only when all of it is valid; the upload goes through the outbox (kept while offline).
 */
export function FileFormPage({ application, type, fileId }: { application: LoadedApplication; type: AdditionalFileType; fileId: string }) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const isNew = fileId === 'new';
  const data = useFileFormData(view.name, model, type, fileId, i18n.locale);
  const form = useFileForm(view.name, model, type, data, isNew);
  const { valid, progress } = form;

  const editable = isNew || (data.file?.mayEdit ?? false);
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
          void form.submit();
        }}
      >
        <DescriptionSection model={model} type={type} choices={data.choices} form={form} editable={editable} />
        <FilePanel stored={data.file} form={form} editable={editable} isNew={isNew} />
        <AssociatedDataPanel applicationName={view.name} model={model} associates={form.associates} disabled={!editable} onChange={form.setAssociates} />

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
            <Link {...form.listPath}>
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
