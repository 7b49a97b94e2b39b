import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CircleCheck, Download, LoaderCircle, Send, Trash2 } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import type { CsvReport, StoredRow } from '@/domain/csv';
import { readFileName } from '@/domain/deposits/fileName';
import { findScopeRow } from '@/domain/deposits/scopeValues';
import { versionRowsQuery, type VersionDataset } from '@/domain/deposits/versionRows';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { InTheBackup } from '@/components/backup/InTheBackup';
import { CsvReportView } from '@/components/csv/CsvReportView';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { FileInput } from '@/components/ui/file-input';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { describeProblem } from '@/lib/i18n/problems';
import { showToast } from '@/lib/toast';
import { useCsvWorker } from '@/workers/useCsvWorker';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { outbox } from '@/offline/outboxInstance';
import { useOutboxItems } from '@/offline/useOutbox';
import { depositUpload, downloadVersion, fetchPublicationState, fetchVersions, publicationChange, readableRowsHref, versionDeletion, type Version } from '../api';
import { useScopeRows } from '../hooks/useScopeRows';
import { groupByPeriod, kiloBytes } from '../periods';
import { ScopeSelect } from './ScopeSelect';

const MAX_COMMENT = 200;

/** Deposits of a versioned data type: choose the dataset, check and deposit a file, publish one version per period. */
export function DepositsPage({ application, entry }: { application: LoadedApplication; entry: DataEntry }) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const submission = entry.submission;
  // Every reference the file may point to is needed to check it; the scope ones also fill the selectors.
  const neededReferences = [...new Set([...submission.referenceScopes.map((s) => s.reference), ...entry.dependsOn])];
  const { rows: scopeRows, missing, ready } = useScopeRows(view.name, neededReferences);
  const [scope, setScope] = useState<Record<string, string>>({});
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [selectedPeriod, setSelectedPeriod] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [comment, setComment] = useState('');
  const [report, setReport] = useState<CsvReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Version | null>(null);
  /** A version whose download was refused because the caller's rights do not cover it whole, with the refusal. */
  const [refused, setRefused] = useState<{ version: Version; error: ApiError } | null>(null);
  // A new key empties the file field once its file is deposited (or queued), so it no longer shows a file.
  const [fileField, setFileField] = useState(0);
  const worker = useCsvWorker();
  const items = useOutboxItems();

  const complete = submission.referenceScopes.every((s) => scope[s.component]);
  const needsPeriod = submission.timeScope !== null;
  const scopeKey = JSON.stringify(scope);

  const reload = useCallback(async () => {
    if (!complete) return setVersions(null);
    try {
      setVersions(await fetchVersions(view.name, entry.name, scope));
    } catch (error) {
      showToast('error', translateServerError(i18n, error));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the scope is compared through its text (scopeKey): a new object with the same choices is the same dataset; i18n is one instance
  }, [complete, view.name, entry.name, scopeKey]);
  useEffect(() => void reload(), [reload]);
  useEffect(() => setRefused(null), [scopeKey]);

  const groups = useMemo(() => groupByPeriod(versions ?? []), [versions]);
  const pending = (items ?? []).filter(
    (item) => item.kind === 'deposit.upload' && item.status !== 'done' && item.summary.dataType === entry.name && item.summary.name === view.name && item.summary.scope === scopeKey,
  );
  // A change the outbox sends later (a deposit queued offline) shows in the versions once the server has applied it.
  const applied = items ? items.filter((item) => item.kind.startsWith('deposit.') && item.status === 'done' && item.summary.dataType === entry.name && item.summary.name === view.name).length : null;
  const appliedBefore = useRef<number | null>(null);
  useEffect(() => {
    if (applied === null) return;
    if (appliedBefore.current !== null && applied > appliedBefore.current) void reload();
    appliedBefore.current = applied;
  }, [applied, reload]);

  function chooseFile(chosen: File | null) {
    setFile(chosen);
    setReport(null);
    if (!chosen) return;
    const read = readFileName(submission, chosen.name);
    if (!read) return;
    // The name follows the configured pattern: it gives the dataset.
    const next = { ...scope };
    for (const reference of submission.referenceScopes) {
      const textValue = read.scope[reference.component];
      const row = textValue ? findScopeRow(scopeRows[reference.reference] ?? [], textValue) : undefined;
      if (row) next[reference.component] = row.hierarchicalKey;
    }
    setScope(next);
    if (read.from) setFrom(read.from.slice(0, 10));
    if (read.to) setTo(read.to.slice(0, 10));
    showToast('info', t`The dataset was read from the file name.`);
  }

  const dataset = { scope, from, to };
  const canCheck = Boolean(file) && complete && (!needsPeriod || (from !== '' && to !== '' && from <= to)) && comment.length <= MAX_COMMENT;

  async function check() {
    if (!file) return;
    setBusy(t`Checking ${file.name}…`);
    try {
      const references: Record<string, StoredRow[]> = Object.fromEntries(Object.entries(scopeRows).map(([name, rows]) => [name, rows as StoredRow[]]));
      const result = await worker().validateCsv(new Uint8Array(await file.arrayBuffer()), {
        model,
        dataName: entry.name,
        fileName: file.name,
        references,
        deposit: { scope, ...(needsPeriod ? { from: `${from}T00:00:00`, to: `${to}T00:00:00` } : {}) },
      });
      setReport(result);
    } finally {
      setBusy(null);
    }
  }

  /** Once deposited (or queued), the file and its comment leave the form: the next file starts afresh. */
  function forgetFile() {
    setFile(null);
    setReport(null);
    setComment('');
    setFileField((key) => key + 1);
  }

  async function deposit() {
    if (!file) return;
    setBusy(t`Sending…`);
    const outcome = await outbox.submit(depositUpload(view.name, entry.name, file, dataset, comment));
    setBusy(null);
    if (outcome.status === 'done') {
      showToast('success', t`The file ${file.name} has been deposited.`);
      forgetFile();
      await reload();
    } else if (outcome.status === 'queued') {
      showToast('info', t`Saved on this device.`, t`It will be sent to the server as soon as the network is back.`);
      forgetFile();
    } else if (outcome.error.lineErrors) {
      setReport({ rowCount: 0, errorCount: outcome.error.lineErrors.length, errors: outcome.error.lineErrors, truncated: false });
    } else {
      showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)));
    }
  }

  async function waitForJob(fileId: string) {
    for (;;) {
      const state = await fetchPublicationState(view.name, fileId);
      setVersions((current) => current?.map((v) => (v.id === fileId ? state : v)) ?? null);
      if (!state.job || state.job.status === 'done' || state.job.status === 'failed') return state;
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
  }

  async function togglePublication(version: Version, publish: boolean) {
    const outcome = await outbox.submit(publicationChange(view.name, entry.name, version, publish));
    if (outcome.status === 'queued') return showToast('info', t`Saved on this device.`, t`It will be sent to the server as soon as the network is back.`);
    if (outcome.status === 'needs-attention') return showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)));
    const state = await waitForJob(version.id);
    if (state.job?.status === 'failed' && state.job.error) showToast('error', describeProblem(i18n, state.job.error));
    else showToast('success', publish ? t`The version has been published.` : t`The version is no longer published.`);
    await reload();
  }

  async function download(version: Version) {
    try {
      await downloadVersion(view.name, version.id);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'NO_RIGHT_FOR_WHOLE_VERSION')) return showToast('error', translateServerError(i18n, error));
      setRefused({ version, error });
      // The list was read under wider rights: read it again, as the server now sees them.
      await reload();
    }
  }

  /** The export of the published rows of a dataset (or of one version of it) the caller may read, when the device has its scope rows. */
  const readableRows = (dataset: VersionDataset) => {
    const query = versionRowsQuery(entry, dataset, (reference) => scopeRows[reference] ?? []);
    return query ? readableRowsHref(view.name, entry.name, query) : null;
  };

  async function confirmDeletion(version: Version) {
    setDeleting(null);
    const outcome = await outbox.submit(versionDeletion(view.name, entry.name, version));
    if (outcome.status === 'needs-attention') showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)));
    else if (outcome.status === 'done') showToast('success', t`The version has been deleted.`);
    await reload();
  }

  const title = text(entry.i18n.title, entry.name);
  const refusedRows = refused ? readableRows(refused.version) : null;
  const period = groups.find((g) => g.key === selectedPeriod) ?? null;
  const date = (iso: string | null) => (iso ? i18n.date(new Date(iso), { dateStyle: 'medium' }) : '');
  const scopeDisplay = (reference: string) => (row: { naturalKey: string; values: Record<string, unknown> }) => {
    const target = model.data.find((d) => d.name === reference);
    return target ? rowDisplay(target, row.values, row.naturalKey, i18n.locale, model.defaultLanguage) : row.naturalKey;
  };

  return (
    // One column no wider than the screen (grid-cols-1): the periods and versions tables scroll inside their box
    // instead of widening the page on a phone.
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: text(view.title, view.name), href: `/applications/${view.name}` },
          { label: t`Data types`, href: `/applications/${view.name}/dataTypes` },
          { label: t`Deposits of ${title}` },
        ]}
      />
      <PageHeader title={<Trans>Deposits of {title}</Trans>} description={<Trans>Choose the dataset, then deposit files as versions; one version per period is published.</Trans>} />
      {missing.length > 0 ? <Alert variant="warning">{t`No copy of ${missing.join(', ')} on this device.`}</Alert> : null}

      <Card>
        <CardHeader>
          <CardTitle className="text-lg">
            <Trans>Dataset</Trans>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {!ready ? <LoaderCircle className="size-5 animate-spin" aria-label={t`Loading`} /> : null}
          {ready
            ? submission.referenceScopes.map((reference) => (
                <ScopeSelect
                  key={reference.component}
                  label={text(reference.i18n.title, text(model.data.find((d) => d.name === reference.reference)?.i18n.title, reference.component))}
                  rows={scopeRows[reference.reference] ?? []}
                  value={scope[reference.component] ?? ''}
                  onChange={(value) => setScope((current) => ({ ...current, [reference.component]: value }))}
                  display={scopeDisplay(reference.reference)}
                />
              ))
            : null}
        </CardContent>
      </Card>

      {ready ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">
                <Trans>Deposit a file</Trans>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              <FormField label={t`CSV file`} hint={submission.fileName ? t`A name following ${submission.fileName.pattern.source} fills the dataset and the period.` : undefined}>
                <FileInput key={fileField} accept=".csv,text/csv" onChange={(event) => chooseFile(event.target.files?.[0] ?? null)} />
              </FormField>
              {needsPeriod ? (
                <div className="grid gap-4 sm:grid-cols-2">
                  <FormField label={t`Start date`}>
                    <Input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
                  </FormField>
                  <FormField label={t`End date`} error={from && to && from > to ? t`The end comes before the start.` : undefined}>
                    <Input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
                  </FormField>
                </div>
              ) : null}
              <FormField label={t`Comment`} error={comment.length > MAX_COMMENT ? t`At most ${MAX_COMMENT} characters.` : undefined} hint={t`${comment.length} / ${MAX_COMMENT}`}>
                <Textarea value={comment} onChange={(event) => setComment(event.target.value)} />
              </FormField>
              {busy ? (
                <p role="status" className="flex items-center gap-2">
                  <LoaderCircle className="size-5 animate-spin" aria-hidden />
                  {busy}
                </p>
              ) : null}
              {report && report.errorCount > 0 && file ? <CsvReportView report={report} fileName={file.name} /> : null}
              {report && report.errorCount === 0 ? (
                <Alert variant="success" className="flex items-center gap-2">
                  <CircleCheck aria-hidden />
                  <Plural value={report.rowCount} one="# line checked: the file is valid." other="# lines checked: the file is valid." />
                </Alert>
              ) : null}
              <div className="flex flex-wrap gap-2">
                <Button variant="secondary" disabled={!canCheck || busy !== null} onClick={() => void check()}>
                  <Trans>Check</Trans>
                </Button>
                <Button disabled={!canCheck || !report || report.errorCount > 0 || busy !== null} onClick={() => void deposit()}>
                  <Send aria-hidden />
                  <Trans>Deposit</Trans>
                </Button>
              </div>
            </CardContent>
          </Card>

          {complete && pending.length > 0 ? (
            <Card>
              <CardContent className="grid gap-2 pt-5">
                {pending.map((item) => (
                  <p key={item.id} className="flex flex-wrap items-center gap-2" data-testid="pending-deposit">
                    <Badge variant="warning">{t`pending upload`}</Badge>
                    {item.summary.fileName} {item.summary.period ? `(${item.summary.period})` : ''}
                  </p>
                ))}
              </CardContent>
            </Card>
          ) : null}

          {complete ? (
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">
                <Trans>Periods</Trans>
              </CardTitle>
            </CardHeader>
            <CardContent>
              {groups.length === 0 ? (
                <p className="text-muted-foreground">
                  <Trans>No version yet for this dataset.</Trans>
                </p>
              ) : (
                <Table data-testid="periods">
                  <TableHeader>
                    <TableRow>
                      <TableHead>
                        <Trans>Period</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Versions</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Publication</Trans>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {groups.map((group) => (
                      <TableRow key={group.key} aria-selected={group.key === selectedPeriod} className={group.key === selectedPeriod ? 'bg-muted' : undefined}>
                        <TableCell>
                          <Button variant="link" className="h-auto whitespace-normal px-0 text-left" onClick={() => setSelectedPeriod(group.key)}>
                            {group.from ? `${date(group.from)} – ${date(group.to)}` : t`whole data`}
                          </Button>
                        </TableCell>
                        <TableCell>{group.versions.length}</TableCell>
                        <TableCell>{group.published ? t`version ${group.published.number} published` : t`not published`}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
              <ReadableRowsNote href={readableRows({ scope, from: null, to: null })} />
            </CardContent>
          </Card>
          ) : null}

          {complete && refused ? (
            <Alert variant="warning" className="grid gap-2" data-testid="version-refused">
              <p>{translateServerError(i18n, refused.error)}</p>
              {refusedRows ? (
                <p>
                  <a className="font-medium underline underline-offset-4" href={refusedRows} download>
                    <Download aria-hidden className="mr-1 inline size-4" />
                    <Trans>Download the rows of this version you may read (CSV)</Trans>
                  </a>
                </p>
              ) : null}
            </Alert>
          ) : null}

          {complete && period ? (
            <Card>
              <CardHeader>
                <CardTitle className="text-lg">
                  <Trans>Versions of {period.from ? `${date(period.from)} – ${date(period.to)}` : t`the dataset`}</Trans>
                </CardTitle>
              </CardHeader>
              <CardContent>
                <Table data-testid="versions">
                  <TableHeader>
                    <TableRow>
                      <TableHead>
                        <Trans>No.</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Id</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Size (kB)</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Deposited</Trans>
                      </TableHead>
                      <TableHead>
                        <Trans>Published</Trans>
                      </TableHead>
                      <TableHead className={`bg-muted ${stickyEnd}`}>
                        <span className="sr-only">
                          <Trans>Actions</Trans>
                        </span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {[...period.versions].reverse().map((version) => {
                      const working = version.job && (version.job.status === 'queued' || version.job.status === 'running');
                      return (
                        <TableRow key={version.id} title={version.comment || undefined} data-testid="version-row" data-published={version.published}>
                          <TableCell>{version.number}</TableCell>
                          <TableCell>
                            <code>{version.id.slice(0, 8)}</code>
                          </TableCell>
                          <TableCell>{i18n.number(kiloBytes(version.size))}</TableCell>
                          <TableCell>
                            {date(version.createdAt)} · {version.createdBy.login ?? version.createdBy.id?.slice(0, 8)}
                            <InTheBackup login={version.originalDepositor} />
                          </TableCell>
                          <TableCell>
                            {version.published ? `${date(version.publishedAt)} · ${version.publishedBy.login ?? ''}` : ''}
                            {version.published ? <InTheBackup login={version.originalPublisher} /> : null}
                            {working ? <span className="text-muted-foreground"> {t`working… ${Math.round(version.job!.progress * 100)} %`}</span> : null}
                          </TableCell>
                          <TableCell className={`whitespace-nowrap bg-card ${stickyEnd}`}>
                            <Switch
                              checked={version.published}
                              disabled={Boolean(working)}
                              onCheckedChange={(checked) => void togglePublication(version, checked)}
                              aria-label={version.published ? t`Unpublish version ${version.number}` : t`Publish version ${version.number}`}
                            />
                            <Button variant="ghost" size="icon" aria-label={t`Download version ${version.number}`} onClick={() => void download(version)}>
                              <Download aria-hidden />
                            </Button>
                            <Button variant="ghost" size="icon" aria-label={t`Delete version ${version.number}`} onClick={() => setDeleting(version)}>
                              <Trash2 aria-hidden />
                            </Button>
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </CardContent>
            </Card>
          ) : null}
        </>
      ) : null}

      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent closeLabel={t`Close`}>
          <DialogHeader>
            <DialogTitle>
              <Trans>Delete this version?</Trans>
            </DialogTitle>
          </DialogHeader>
          {deleting?.published ? (
            <Alert variant="destructive">
              <Trans>This version is published: its published data will be deleted too.</Trans>
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">
                <Trans>Cancel</Trans>
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => deleting && void confirmDeletion(deleting)}>
              <Trans>Delete</Trans>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/**
 * Versions are listed to whom their rights cover whole; whoever reads only part of a dataset gets its rows through
 * the data export (null: the device lacks the scope rows to ask for them).
 */
function ReadableRowsNote({ href }: { href: string | null }) {
  return (
    <p className="mt-3 text-sm text-muted-foreground">
      <Trans>Versions appear here when your rights cover their whole scope and period.</Trans>{' '}
      {href ? (
        <a className="font-medium text-foreground underline underline-offset-4" href={href} download>
          <Trans>Download the published rows of this dataset you may read (CSV)</Trans>
        </a>
      ) : null}
    </p>
  );
}
