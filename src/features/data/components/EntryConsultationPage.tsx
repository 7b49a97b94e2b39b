import { useState } from 'react';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Columns3, Filter, Rows3 } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { withoutLeadingNullParts } from '@/domain/keys';
import type { Component, DataEntry } from '@/domain/configuration/model';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { NoRightsNotice } from '@/components/layout/NoRightsNotice';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { ApiError } from '@/lib/api/apiError';
import { useConnectivity } from '@/lib/connectivity';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import { showToast } from '@/lib/toast';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastRefusal, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import type { RowView } from '@/contract/rows';
import { rowDeletion } from '../api';
import { useColumnVisibility } from '../hooks/useColumnVisibility';
import { useDownload } from '../hooks/useDownload';
import { useEntryRows } from '../hooks/useEntryRows';
import { PAGE_SIZES, useRowsQuery } from '../hooks/useRowsQuery';
import { CellTableDialog } from './CellTableDialog';
import { ColumnTags } from './ColumnTags';
import { ColumnsMenu } from './ColumnsMenu';
import { DownloadProgress } from './DownloadProgress';
import { ExportMenu } from './ExportMenu';
import { FilterPanel } from './FilterPanel';
import { RowDetails } from './RowDetails';
import { RowsTable } from './RowsTable';

interface Props {
  application: LoadedApplication;
  entry: DataEntry;
}

/** The rows of one reference or data type: filters, order, pages, tag-driven columns, details, export and deletion. */
export function EntryConsultationPage({ application, entry }: Props) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const { query, filters, changeFilters, order, toggleOrder, page, setPage, size, changeSize } = useRowsQuery();
  const [showFilters, setShowFilters] = useState(false);
  const [vertical, setVertical] = useState(false);
  const [details, setDetails] = useState<{ reference: string; naturalKey: string } | null>(null);
  const [table, setTable] = useState<{ title: string; rows: Array<Record<string, string>> } | null>(null);
  const [deleting, setDeleting] = useState<RowView | null>(null);
  const [filterLabels, setFilterLabels] = useState<Record<string, string>>({});

  const { page: result, loading, updating, error, offlineSince, reload } = useEntryRows(view.name, entry, query, { keepPreviousPage: true });
  const { reachable } = useConnectivity();
  const download = useDownload();
  const refusal = error instanceof ApiError && error.status === 403 ? translateServerError(i18n, error) : undefined;
  const isReference = entry.kind === 'reference';
  // Rows of versions are removed with their version, from the deposits page.
  const canDelete = isReference ? view.canWriteReference : view.canWriteDatatype && entry.submission.strategy === 'OA_INSERTION';

  const columns = useColumnVisibility(view.name, entry.name);
  const showable = entry.components
    .filter((c) => !c.tags.hidden && (c.langRestrictions === null || c.langRestrictions.includes(i18n.locale)))
    .sort((a, b) => a.tags.order - b.tags.order);
  const visible = showable.filter(columns.isShown);
  const columnTags = [...new Set(entry.components.flatMap((c) => c.tags.domain))];
  const hasPatterns = entry.components.some((c) => c.kind === 'pattern');
  const title = text(entry.i18n.title, entry.name);
  const total = result?.totalRows ?? 0;
  const count = pageCount(total, size);
  const titled = (component: Component) => text(component.exportHeader.title, component.key);

  async function confirmDeletion(row: RowView) {
    setDeleting(null);
    const outcome = await submitChange(rowDeletion(view.name, entry, [row.naturalKey]));
    if (outcome.status === 'done') {
      showToast('success', t`The line ${withoutLeadingNullParts(row.naturalKey)} has been deleted.`);
      reload();
    } else if (outcome.status === 'queued') {
      toastSavedOnDevice(i18n);
    } else {
      const { referring, referringMore } = outcome.error.params as { referring?: Array<{ dataName: string; naturalKey: string }>; referringMore?: boolean };
      const listed = referring?.map((r) => `${r.dataName} ${r.naturalKey}`);
      toastRefusal(i18n, outcome.error, listed?.length ? [...listed, ...(referringMore ? ['…'] : [])].join(', ') : undefined);
    }
  }

  return (
    <div>
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: text(view.title, view.name), href: `/applications/${view.name}` },
          isReference ? { label: t`References`, href: `/applications/${view.name}/references` } : { label: t`Data types`, href: `/applications/${view.name}/dataTypes` },
          { label: title },
        ]}
      />
      <PageHeader
        title={title}
        description={<Plural value={total} one="# line" other="# lines" />}
        actions={
          <>
            <Button variant="outline" aria-expanded={showFilters} onClick={() => setShowFilters((s) => !s)}>
              <Filter aria-hidden />
              <Trans>Filters</Trans>
              {filters.length ? ` (${filters.length})` : ''}
            </Button>
            <ColumnsMenu columns={showable.map((component) => ({ component, title: titled(component) }))} hidden={columns.hidden} onChange={columns.change} isShown={columns.isShown} isTagHidden={columns.isTagHidden} />
            {hasPatterns ? (
              <Button variant="outline" aria-pressed={vertical} onClick={() => setVertical((v) => !v)}>
                {vertical ? <Columns3 aria-hidden /> : <Rows3 aria-hidden />}
                {vertical ? <Trans>Horizontal</Trans> : <Trans>Vertical</Trans>}
              </Button>
            ) : null}
            <ExportMenu
              application={view.name}
              entry={entry}
              query={query}
              filtered={filters.length > 0}
              total={total}
              onDownload={(path, fileName, expectedLines) => void download.start(path, fileName, expectedLines)}
              unavailable={
                refusal ? (
                  <Trans>You may not download these lines: {refusal}</Trans>
                ) : !reachable || offlineSince ? (
                  <Trans>Downloads need the server, out of reach now: the lines shown are those kept on this device.</Trans>
                ) : undefined
              }
            />
          </>
        }
      />
      {download.state ? <DownloadProgress state={download.state} onCancel={download.cancel} onDismiss={download.dismiss} /> : null}
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {columnTags.length > 0 ? <ColumnTags model={model} tags={columnTags} hidden={columns.hidden.tags} onChange={(tags) => columns.change({ ...columns.hidden, tags })} /> : null}
      {showFilters ? (
        <div className="mb-4 rounded-lg border border-border bg-card p-4">
          <FilterPanel
            components={visible.map((component) => ({ component, title: titled(component) }))}
            filters={filters}
            onChange={changeFilters}
            application={view.name}
            model={model}
            labels={filterLabels}
            onLabel={(key, label) => setFilterLabels((known) => ({ ...known, [key]: label }))}
          />
        </div>
      ) : null}
      {error instanceof ApiError && error.status === 403 ? (
        <NoRightsNotice applicationName={view.name}>{translateServerError(i18n, error)}</NoRightsNotice>
      ) : error ? (
        <Alert variant="destructive" data-testid="no-rights">
          {translateServerError(i18n, error)}
        </Alert>
      ) : null}

      <RowsTable
        model={model}
        entry={entry}
        columns={visible}
        rows={result?.referenceValues}
        loading={loading || updating}
        order={order}
        onSort={toggleOrder}
        vertical={vertical}
        canDelete={canDelete}
        onDetails={setDetails}
        onOpenTable={(name, rows) => setTable({ title: name, rows })}
        onDelete={setDeleting}
      />
      {result && result.referenceValues.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">
          <Trans>No line matches.</Trans>
        </p>
      ) : null}

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2">
          <Trans>Lines per page</Trans>
          <NativeSelect value={size} onChange={(event) => changeSize(Number(event.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </NativeSelect>
        </label>
        {total > size ? (
          <Pager page={page} count={count} pages={pagerPages(page, count)} onChange={setPage} labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }} />
        ) : null}
      </div>

      <RowDetails application={application} target={details} onClose={() => setDetails(null)} onOpenReference={(reference, naturalKey) => setDetails({ reference, naturalKey })} />
      <CellTableDialog table={table} onClose={() => setTable(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDeletion(deleting)}
        title={<Trans>Delete the line {deleting ? withoutLeadingNullParts(deleting.naturalKey) : ''}?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
      >
        <p>
          <Trans>It is refused when other data point to it.</Trans>
        </p>
      </ConfirmDialog>
    </div>
  );
}
