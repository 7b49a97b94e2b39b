import { Fragment, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Download, Eye, FileArchive, Plus, Trash2 } from 'lucide-react';
import { linkStatus, type LinkStatus } from '@/domain/additionalFiles/fileView';
import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import { localized } from '@/domain/applications/summary';
import type { AdditionalFileType } from '@/domain/configuration/model';
import { InTheBackup } from '@/components/backup/InTheBackup';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import { showToast } from '@/lib/toast';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { outbox } from '@/offline/outboxInstance';
import { useOutboxItems } from '@/offline/useOutbox';
import { fetchFiles, fileContentHref, filesDeletion, zipHref, type AdditionalFile, type FilesPage as Page } from '../api';
import { fieldTitle, fieldValueText, formatSize } from '../display';
import { FieldFilterPanel } from './FieldFilterPanel';
import { OfflineNotice } from '@/components/layout/OfflineNotice';

const PAGE_SIZE = 30;

/** The files of one type: filters, pages, details per row, download alone or zipped, deletion. */
export function FilesPage({ application, type }: { application: LoadedApplication; type: AdditionalFileType }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<FieldFilter[]>([]);
  const [data, setData] = useState<Page | null>(null);
  const [error, setError] = useState<unknown>();
  const [offlineSince, setOfflineSince] = useState<number | undefined>();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<AdditionalFile[] | null>(null);
  const items = useOutboxItems();

  const reload = useCallback(async () => {
    try {
      const kept = await fetchFiles(view.name, type.name, { filters, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
      setData(kept.value);
      setOfflineSince(kept.offlineSince);
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, [view.name, type.name, filters, page]);
  useEffect(() => void reload(), [reload]);

  const mine = (items ?? []).filter((item) => item.kind.startsWith('additionalFile.') && item.summary.name === view.name && item.summary.fileType === type.name);
  const pending = mine.filter((item) => item.status !== 'done');
  // A change the outbox sends later (an upload queued offline) shows in the list once the server has applied it.
  const applied = items ? mine.filter((item) => item.status === 'done').length : null;
  const appliedBefore = useRef<number | null>(null);
  useEffect(() => {
    if (applied === null) return;
    if (appliedBefore.current !== null && applied > appliedBefore.current) void reload();
    appliedBefore.current = applied;
  }, [applied, reload]);

  const title = text(type.i18n.title, type.name);
  const appTitle = text(view.title, view.name);
  const files = data?.additionalBinaryFiles ?? [];
  const count = pageCount(data?.totalCount ?? 0, PAGE_SIZE);
  const mayAdd = data ? data.rights.depot || data.rights.admin : true;
  const chosen = files.filter((file) => selected.has(file.id));
  const offline = error instanceof ApiError && error.isNetworkError;
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium' });
  const toggle = (set: Set<string>, id: string) => new Set(set.has(id) ? [...set].filter((k) => k !== id) : [...set, id]);
  const statusLabels: Record<LinkStatus, string> = { application: t`Whole application`, data: t`Linked to data`, none: t`Not linked` };

  async function remove(targets: AdditionalFile[]) {
    setDeleting(null);
    const outcome = await outbox.submit(filesDeletion(view.name, type.name, targets));
    if (outcome.status === 'needs-attention') return showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)));
    if (outcome.status === 'queued') return showToast('info', t`Saved on this device.`, t`It will be sent to the server as soon as the network is back.`);
    showToast('success', targets.length === 1 ? t`The file ${targets[0].fileName} has been deleted.` : t`${targets.length} files have been deleted.`);
    setSelected(new Set());
    await reload();
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
              onChange={(event) => void navigate({ to: '/applications/$applicationName/additionalFiles/$additionalFileName', params: { applicationName: view.name, additionalFileName: event.target.value } })}
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
      {offline ? <Alert variant="warning">{t`The server cannot be reached: the list of files needs the network. Files you add are kept on this device and sent later.`}</Alert> : null}
      {pending.length ? (
        <Alert variant="info" data-testid="pending-files">
          <p className="font-medium">
            <Trans>Waiting to be sent</Trans>
          </p>
          <ul className="list-inside list-disc">
            {pending.map((item) => (
              <li key={item.id}>
                {item.summary.fileName ?? item.summary.fileNames}
                {item.status === 'needs-attention' ? <span className="text-destructive"> — {t`needs your attention`}</span> : null}
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
                  <a href={zipHref(view.name, chosen.map((file) => file.id))} download="additionalFile.zip">
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
          <Table data-testid="files-table">
            <TableHeader>
              <TableRow>
                <TableHead className="w-12 px-1 sm:px-3">
                  <span className="sr-only">{t`Details`}</span>
                </TableHead>
                <TableHead className="w-12 px-1 sm:px-3">
                  <Checkbox
                    aria-label={t`Select every file of the page`}
                    checked={files.length > 0 && chosen.length === files.length ? true : chosen.length > 0 ? 'indeterminate' : false}
                    onCheckedChange={(checked) => setSelected(checked === true ? new Set(files.map((file) => file.id)) : new Set())}
                  />
                </TableHead>
                <TableHead>
                  <Trans>File</Trans>
                </TableHead>
                <TableHead className="hidden sm:table-cell">
                  <Trans>Size</Trans>
                </TableHead>
                <TableHead className="hidden lg:table-cell">
                  <Trans>Comment</Trans>
                </TableHead>
                <TableHead className="hidden md:table-cell">
                  <Trans>Updated</Trans>
                </TableHead>
                <TableHead className="hidden lg:table-cell">
                  <Trans>Author</Trans>
                </TableHead>
                <TableHead className={`bg-muted ${stickyEnd}`}>
                  <span className="sr-only">{t`Actions`}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {files.map((file) => {
                const status = linkStatus(file);
                return (
                  <Fragment key={file.id}>
                    <TableRow data-testid="file-row" data-name={file.fileName}>
                      <TableCell className="px-1 sm:px-3">
                        <Button variant="ghost" size="icon" aria-expanded={open.has(file.id)} aria-label={t`Details of ${file.fileName}`} onClick={() => setOpen((set) => toggle(set, file.id))}>
                          {open.has(file.id) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                        </Button>
                      </TableCell>
                      <TableCell className="px-1 sm:px-3">
                        <Checkbox aria-label={t`Select ${file.fileName}`} checked={selected.has(file.id)} onCheckedChange={() => setSelected((set) => toggle(set, file.id))} />
                      </TableCell>
                      <TableCell className="min-w-0 break-words">
                        <span className="font-medium">{file.fileName}</span>
                        <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
                          <Badge variant={status === 'application' ? 'default' : status === 'data' ? 'secondary' : 'outline'}>{statusLabels[status]}</Badge>
                          <span className="sm:hidden">{formatSize(i18n, file.size)}</span>
                          <span className="md:hidden">{date(file.updateDate)}</span>
                        </span>
                      </TableCell>
                      <TableCell className="hidden whitespace-nowrap sm:table-cell">{formatSize(i18n, file.size)}</TableCell>
                      <TableCell className="hidden max-w-64 lg:table-cell">
                        <span className="line-clamp-2">{file.comment}</span>
                      </TableCell>
                      <TableCell className="hidden whitespace-nowrap md:table-cell">{date(file.updateDate)}</TableCell>
                      <TableCell className="hidden lg:table-cell">
                        {file.ownerLogin ?? '—'}
                        <InTheBackup login={file.originalOwner} />
                      </TableCell>
                      <TableCell className={`whitespace-nowrap bg-card px-1 sm:px-3 ${stickyEnd}`}>
                        <Button asChild variant="ghost" size="icon">
                          <Link
                            to="/applications/$applicationName/additionalFiles/$additionalFileName/$additionalFileId"
                            params={{ applicationName: view.name, additionalFileName: type.name, additionalFileId: file.id }}
                            aria-label={file.mayEdit ? t`Consult or modify ${file.fileName}` : t`Consult ${file.fileName}`}
                          >
                            <Eye aria-hidden />
                          </Link>
                        </Button>
                        <Button asChild variant="ghost" size="icon">
                          <a href={fileContentHref(view.name, file)} download={file.fileName} aria-label={t`Download ${file.fileName}`}>
                            <Download aria-hidden />
                          </a>
                        </Button>
                        {file.mayDelete ? (
                          <Button variant="ghost" size="icon" aria-label={t`Delete ${file.fileName}`} onClick={() => setDeleting([file])}>
                            <Trash2 aria-hidden />
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                    {open.has(file.id) ? (
                      <TableRow data-testid="file-details">
                        <TableCell colSpan={8}>
                          <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
                            {type.fields.map((field) => (
                              <Fragment key={field.name}>
                                <dt className="font-medium text-muted-foreground">{fieldTitle(field, i18n.locale, model.defaultLanguage)}</dt>
                                <dd className="break-words">{fieldValueText(field, file.additionalBinaryFileForm[field.name], data.fieldChoices) || '—'}</dd>
                              </Fragment>
                            ))}
                            <dt className="font-medium text-muted-foreground">
                              <Trans>Comment</Trans>
                            </dt>
                            <dd className="whitespace-pre-wrap break-words">{file.comment}</dd>
                            <dt className="font-medium text-muted-foreground">
                              <Trans>Size</Trans>
                            </dt>
                            <dd>{formatSize(i18n, file.size)}</dd>
                            <dt className="font-medium text-muted-foreground">
                              <Trans>Author</Trans>
                            </dt>
                            <dd>
                              {file.ownerLogin ?? '—'}
                              <InTheBackup login={file.originalOwner} />
                            </dd>
                            <dt className="font-medium text-muted-foreground">
                              <Trans>Updated</Trans>
                            </dt>
                            <dd>{i18n.date(new Date(file.updateDate), { dateStyle: 'medium', timeStyle: 'short' })}</dd>
                            <dt className="font-medium text-muted-foreground">
                              <Trans>Attached to</Trans>
                            </dt>
                            <dd>
                              {status === 'none'
                                ? '—'
                                : [
                                    ...(file.forApplication ? [t`the whole application`] : []),
                                    ...Object.entries(file.associates).map(([dataName, { scopes }]) => {
                                      const entryTitle = text(model.data.find((d) => d.name === dataName)?.i18n.title, dataName);
                                      const keys = Object.values(scopes).flat();
                                      return keys.length ? `${entryTitle} (${keys.join(', ')})` : entryTitle;
                                    }),
                                  ].join(' · ')}
                            </dd>
                          </dl>
                        </TableCell>
                      </TableRow>
                    ) : null}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
          {files.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">{filters.length ? <Trans>No file matches the filters.</Trans> : <Trans>No file yet.</Trans>}</p>
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
              labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }}
            />
          ) : null}
        </>
      ) : null}

      <Dialog open={deleting !== null} onOpenChange={(value) => !value && setDeleting(null)}>
        <DialogContent closeLabel={t`Close`}>
          <DialogHeader>
            <DialogTitle>{deleting?.length === 1 ? t`Delete ${deleting[0].fileName}?` : t`Delete ${deleting?.length ?? 0} files?`}</DialogTitle>
            <DialogDescription>
              <Trans>The files are deleted for everyone; this cannot be undone.</Trans>
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">
                <Trans>Cancel</Trans>
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => deleting && void remove(deleting)}>
              <Trash2 aria-hidden />
              <Trans>Delete</Trans>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
