import { useEffect, useMemo, useState } from 'react';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import { versionRowsQuery, type VersionDataset } from '@/domain/deposits/versionRows';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { useOutboxItems } from '@/offline/useOutbox';
import { readableRowsHref, type Version } from '../api';
import { useScopeRows } from '../hooks/useScopeRows';
import { useVersionActions } from '../hooks/useVersionActions';
import { useVersions } from '../hooks/useVersions';
import { useEditedDeposit } from '../hooks/useEditedDeposit';
import { periodDates } from '../dates';
import { groupByPeriod } from '../periods';
import { DatasetCard } from './DatasetCard';
import { DepositForm } from './DepositForm';
import { PeriodsCard } from './PeriodsCard';
import { VersionsCard } from './VersionsCard';

/**
 * The period of a deposit waiting on the device, "(from – to)": its days (`YYYY-MM-DD`, read at local midnight), or
 * the text kept by deposits queued before the days were recorded.
 */
function pendingPeriod(i18n: I18n, summary: Record<string, string>) {
  const period = summary.from
    ? periodDates(i18n, { from: `${summary.from}T00:00:00`, to: `${summary.to}T00:00:00` })
    : summary.period;
  return period ? `(${period})` : '';
}

/** Deposits of a versioned data type: choose the dataset, check and deposit a file, publish one version per period. */
export function DepositsPage({
  application,
  entry,
  editedItem,
}: {
  application: LoadedApplication;
  entry: DataEntry;
  /** A refused deposit reopened from the pending changes (its outbox id). */
  editedItem?: number;
}) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const submission = entry.submission;
  // Every reference the file may point to is needed to check it; the scope ones also fill the selectors.
  const neededReferences = [...new Set([...submission.referenceScopes.map((s) => s.reference), ...entry.dependsOn])];
  const { rows: scopeRows, missing, parts, ready } = useScopeRows(view.name, neededReferences);
  const [scope, setScope] = useState<Record<string, string>>({});
  const [selectedPeriod, setSelectedPeriod] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Version | null>(null);
  const items = useOutboxItems();
  const edited = useEditedDeposit(editedItem, entry.name);
  // The refused deposit's dataset is the one on screen while it is edited.
  useEffect(() => {
    if (edited) setScope(edited.dataset.scope);
  }, [edited]);

  const complete = submission.referenceScopes.every((s) => scope[s.component]);
  const scopeKey = JSON.stringify(scope);
  const { versions, offlineSince, setVersions, reload } = useVersions(view.name, entry.name, scope, complete);
  const offlineFrom = application.offlineSince ?? offlineSince;
  const actions = useVersionActions(view.name, entry.name, scopeKey, { setVersions, reload });
  // A change the outbox sends later (a deposit queued offline) shows in the versions once the server has applied it:
  // the cache then marks the application's reads stale.

  const groups = useMemo(() => groupByPeriod(versions ?? []), [versions]);
  const pending = (items ?? []).filter(
    (item) =>
      item.kind === 'deposit.upload' &&
      item.status !== 'done' &&
      item.summary.dataType === entry.name &&
      item.summary.name === view.name &&
      item.summary.scope === scopeKey,
  );
  /** The export of the published rows of a dataset (or of one version of it) the caller may read, when the device has its scope rows. */
  const readableRows = (dataset: VersionDataset) => {
    const query = versionRowsQuery(entry, dataset, (reference) => scopeRows[reference] ?? []);
    return query ? readableRowsHref(view.name, entry.name, query) : null;
  };

  const title = text(entry.i18n.title, entry.name);
  const refusedRows = actions.refusal ? readableRows(actions.refusal.version) : null;
  const period = groups.find((g) => g.key === selectedPeriod) ?? null;

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
      <PageHeader
        title={<Trans>Deposits of {title}</Trans>}
        description={
          <Trans>Choose the dataset, then deposit files as versions; one version per period is published.</Trans>
        }
      />
      {offlineFrom ? <OfflineNotice fetchedAt={offlineFrom} /> : null}
      {missing.length > 0 ? (
        <Alert variant="warning">{t`No copy of ${missing.join(', ')} on this device.`}</Alert>
      ) : null}

      <DatasetCard
        model={model}
        entry={entry}
        scopeRows={scopeRows}
        ready={ready}
        scope={scope}
        onChange={(component, value) => setScope((current) => ({ ...current, [component]: value }))}
      />

      {ready ? (
        <>
          <DepositForm
            key={edited?.itemId ?? 'new'}
            replaces={edited}
            application={application}
            entry={entry}
            scope={scope}
            onScopeRead={setScope}
            scopeRows={scopeRows}
            device={{ withoutCopy: missing, partCopies: parts, queuedRows: {} }}
            complete={complete}
            onDeposited={reload}
          />

          {complete && pending.length > 0 ? (
            <Card>
              <CardContent className="grid gap-2 pt-5">
                {pending.map((item) => (
                  <p key={item.id} className="flex flex-wrap items-center gap-2" data-testid="pending-deposit">
                    {item.status === 'needs-attention' ? (
                      <Badge variant="destructive">{t`refused: see the pending changes`}</Badge>
                    ) : (
                      <Badge variant="warning">{t`pending upload`}</Badge>
                    )}
                    {item.summary.fileName} {pendingPeriod(i18n, item.summary)}
                  </p>
                ))}
              </CardContent>
            </Card>
          ) : null}

          {complete ? (
            <PeriodsCard
              groups={groups}
              selected={selectedPeriod}
              onSelect={setSelectedPeriod}
              readableRowsHref={readableRows({ scope, from: null, to: null })}
            />
          ) : null}

          {complete && actions.refusal ? (
            <Alert variant="warning" className="grid gap-2" data-testid="version-refused">
              <p>{translateServerError(i18n, actions.refusal.error)}</p>
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
            <VersionsCard
              key={period.key}
              period={period}
              onPublish={(version, publish) => void actions.togglePublication(version, publish)}
              onDownload={(version) => void actions.download(version)}
              onDelete={setDeleting}
            />
          ) : null}
        </>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void actions.remove(deleting);
          setDeleting(null);
        }}
        title={<Trans>Delete this version?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
      >
        {deleting?.published ? (
          <Alert variant="destructive">
            <Trans>This version is published: its published data will be deleted too.</Trans>
          </Alert>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
