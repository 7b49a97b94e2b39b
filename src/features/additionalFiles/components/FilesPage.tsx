import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { FileArchive, Plus, Trash2 } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType } from '@/domain/configuration/model';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import type { OutboxItem } from '@/offline/outboxTypes';
import { useOutboxItems, useOutboxSubmit } from '@/offline/useOutbox';
import { filesDeletion, zipHref, type AdditionalFile } from '../api';
import { FILES_PER_PAGE, useFilesList } from '../hooks/useFilesList';
import { FieldFilterPanel } from './FieldFilterPanel';
import { FilesTable } from './FilesTable';

/** The files of one type: filters, pages, details per row, download alone or zipped, deletion. */
export function FilesPage({ application, type }: { application: LoadedApplication; type: AdditionalFileType }) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const { page, setPage, filters, setFilters, data, error, offlineSince, reload } = useFilesList(view.name, type.name);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<AdditionalFile[] | null>(null);
  const items = useOutboxItems();

  const isMine = (item: OutboxItem) =>
    item.kind.startsWith('additionalFile.') && item.summary.name === view.name && item.summary.fileType === type.name;
  const pending = (items ?? []).filter((item) => isMine(item) && item.status !== 'done');
  // A change the outbox sends later (an upload queued offline) shows in the list once the server has applied it: the
  // cache then marks the application's reads stale.

  const title = text(type.i18n.title, type.name);
  const appTitle = text(view.title, view.name);
  const files = data?.additionalBinaryFiles ?? [];
  const count = pageCount(data?.totalCount ?? 0, FILES_PER_PAGE);
  const mayAdd = data ? data.rights.depot || data.rights.admin : true;
  const chosen = files.filter((file) => selected.has(file.id));
  const offline = error instanceof ApiError && error.isNetworkError;

  async function remove(targets: AdditionalFile[]) {
    setDeleting(null);
    const outcome = await submitChange(filesDeletion(view.name, type.name, targets));
    toastOutcome(
      i18n,
      outcome,
      targets.length === 1
        ? t`The file ${targets[0].fileName} has been deleted.`
        : t`${targets.length} files have been deleted.`,
    );
    if (outcome.status !== 'done') return;
    setSelected(new Set());
    reload();
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Additional files`, href: `/applications/${view.name}/additionalFiles` },
          { label: title },
        ]}
      />
      <PageHeader
        title={title}
        description={text(type.i18n.description) || undefined}
        actions={
          mayAdd ? (
            <Button asChild>
              <Link
                to="/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId"
                params={{ applicationName: view.name, additionalFileName: type.name, additionalFileId: 'new' }}
              >
                <Plus aria-hidden />
                <Trans>Add a file</Trans>
              </Link>
            </Button>
          ) : null
        }
      />
      {model.additionalFiles.length > 1 ? (
        <div className="max-w-sm">
          <FormField label={t`File type`}>
            <NativeSelect
              value={type.name}
              onChange={(event) =>
                void navigate({
                  to: '/applications/$applicationName/additionalFiles/$additionalFileName',
                  params: { applicationName: view.name, additionalFileName: event.target.value },
                })
              }
            >
              {model.additionalFiles.map((other) => (
                <option key={other.name} value={other.name}>
                  {text(other.i18n.title, other.name)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
      ) : null}
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {error && !offline ? <Alert variant="destructive">{translateServerError(i18n, error)}</Alert> : null}
      {offline ? (
        <Alert variant="warning">{t`The server cannot be reached: the list of files needs the network. Files you add are kept on this device and sent later.`}</Alert>
      ) : null}
      {pending.length ? (
        <Alert variant="info" data-testid="pending-files">
          <p className="font-medium">
            <Trans>Waiting to be sent</Trans>
          </p>
          <ul className="list-inside list-disc">
            {pending.map((item) => (
              <li key={item.id}>
                {item.summary.fileName ?? item.summary.fileNames}
                {item.status === 'needs-attention' ? (
                  <span className="text-destructive"> — {t`needs your attention`}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <FieldFilterPanel
        fields={type.fields}
        defaultLanguage={model.defaultLanguage}
        onApply={(next) => {
          setFilters(next);
          setPage(1);
          setSelected(new Set());
        }}
      />

      {data ? (
        <>
          <div className="flex flex-wrap items-center gap-2" data-testid="selection-actions">
            <span className="text-sm text-muted-foreground" aria-live="polite">
              <Plural value={data.totalCount} _0="No file" one="# file" other="# files" />
              {chosen.length ? <> · {t`${chosen.length} selected`}</> : null}
            </span>
            {chosen.length ? (
              <>
                <Button asChild variant="outline">
                  <a
                    href={zipHref(
                      view.name,
                      chosen.map((file) => file.id),
                    )}
                    download="additionalFile.zip"
                  >
                    <FileArchive aria-hidden />
                    <Trans>Download the selection (zip)</Trans>
                  </a>
                </Button>
                {chosen.every((file) => file.mayDelete) ? (
                  <Button variant="outline" onClick={() => setDeleting(chosen)}>
                    <Trash2 aria-hidden />
                    <Trans>Delete the selection</Trans>
                  </Button>
                ) : null}
              </>
            ) : null}
          </div>
          <FilesTable
            applicationName={view.name}
            model={model}
            type={type}
            files={files}
            // Labels of the values shown: every choice of a small reference, the page's values of a large one.
            fieldChoices={{ ...data.valueLabels, ...data.fieldChoices }}
            selected={selected}
            onSelectedChange={setSelected}
            onDelete={setDeleting}
          />
          {files.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">
              {filters.length ? <Trans>No file matches the filters.</Trans> : <Trans>No file yet.</Trans>}
            </p>
          ) : null}
          {count > 1 ? (
            <Pager
              page={page}
              count={count}
              pages={pagerPages(page, count, 3)}
              onChange={(next) => {
                setPage(next);
                setSelected(new Set());
              }}
              labels={{
                navigation: t`Pages`,
                previous: t`Previous page`,
                next: t`Next page`,
                page: (n) => t`Page ${n}`,
              }}
            />
          ) : null}
        </>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
        title={deleting?.length === 1 ? t`Delete ${deleting[0].fileName}?` : t`Delete ${deleting?.length ?? 0} files?`}
        description={<Trans>The files are deleted for everyone; this cannot be undone.</Trans>}
        confirmLabel={
          <>
            <Trash2 aria-hidden />
            <Trans>Delete</Trans>
          </>
        }
      />
    </div>
  );
}
