import { Trans, useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType } from '@/domain/configuration/model';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { fileContentHref } from '../api';
import { useEditedFileSave } from '../hooks/useEditedFileSave';
import { useFileFormData } from '../hooks/useFileFormData';
import { FileForm } from './FileForm';

/**
 * Creation ('new') or consultation and modification of an additional file: the type's format fields checked on
 * the device by the same rules as the server, a comment, the file and its name, and the data it is attached to.
 * Submit is enabled only when all of it is valid; the upload goes through the outbox (kept while offline).
 */
export function FileFormPage({
  application,
  type,
  fileId,
  editedItem,
}: {
  application: LoadedApplication;
  type: AdditionalFileType;
  fileId: string;
  /** A refused save reopened from the pending changes: the form starts from what was sent, and replaces it. */
  editedItem?: number;
}) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const isNew = fileId === 'new';
  const data = useFileFormData(view.name, model, type, fileId, i18n.locale);
  const edited = useEditedFileSave(editedItem, view.name, type.name, fileId);

  const editable = isNew || (data.file?.mayEdit ?? false);
  const title = text(type.i18n.title, type.name);
  const appTitle = text(view.title, view.name);
  const heading = isNew
    ? t`New file: ${title}`
    : editable
      ? t`Modify ${data.file?.fileName ?? ''}`
      : (data.file?.fileName ?? '');
  if (data.error) return <Alert variant="destructive">{translateServerError(i18n, data.error)}</Alert>;
  if (!data.ready || !edited.ready) return null;

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
      {data.offlineSince ? <OfflineNotice fetchedAt={data.offlineSince} /> : null}
      {data.offline ? (
        <Alert variant="warning">{t`The server cannot be reached: the file will be kept on this device and sent once the network is back.`}</Alert>
      ) : null}
      {!editable ? <Alert variant="info">{t`You may consult this file but not modify it.`}</Alert> : null}

      <FileForm
        applicationName={view.name}
        model={model}
        type={type}
        data={data}
        isNew={isNew}
        editable={editable}
        replaces={edited.edit}
      />
    </div>
  );
}
