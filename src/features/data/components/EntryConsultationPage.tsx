import { useMemo, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, Columns3, Filter, FileSearch, Rows3, Trash2 } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { Component, DataEntry } from '@/domain/configuration/model';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import type { ComponentFilter, ComponentOrder, RowQuery } from '@/domain/rows/rowQuery';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { NoRightsNotice } from '@/components/layout/NoRightsNotice';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import { showToast } from '@/lib/toast';
import { outbox } from '@/offline/outboxInstance';
import { rowDeletion, type ReferenceValue } from '../api';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { useEntryRows } from '../hooks/useEntryRows';
import { ExportMenu } from './ExportMenu';
import { FilterPanel } from './FilterPanel';
import { RowDetails } from './RowDetails';
import { RowValue } from './RowValue';

const PAGE_SIZES = [10, 25, 50];

interface Props {
  application: LoadedApplication;
  entry: DataEntry;
}

/** The rows of one reference or data type: filters, order, pages, tag-driven columns, details, export and deletion. */
export function EntryConsultationPage({ application, entry }: Props) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const [filters, setFilters] = useState<ComponentFilter[]>([]);
  const [order, setOrder] = useState<ComponentOrder[]>([]);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(PAGE_SIZES[0]);
  const [showFilters, setShowFilters] = useState(false);
  const [vertical, setVertical] = useState(false);
  const [hiddenTags, setHiddenTags] = useState<Set<string>>(new Set());
  const [generation, setGeneration] = useState(0);
  const [details, setDetails] = useState<{ reference: string; naturalKey: string } | null>(null);
  const [table, setTable] = useState<{ title: string; rows: Array<Record<string, string>> } | null>(null);
  const [deleting, setDeleting] = useState<ReferenceValue | null>(null);

  const query: RowQuery = useMemo(() => ({ offset: (page - 1) * size, limit: size, componentFilters: filters, componentOrderBy: order, outPut: { locale: i18n.locale } }), [page, size, filters, order, i18n.locale]);
  const { page: result, loading, error, offlineSince } = useEntryRows(view.name, entry, query, generation);
  const isReference = entry.kind === 'reference';
  // Rows of versions are removed with their version, from the deposits page.
  const canDelete = isReference ? view.canWriteReference : view.canWriteDatatype && entry.submission.strategy === 'OA_INSERTION';

  const visible = entry.components
    .filter((c) => !c.tags.hidden && (c.langRestrictions === null || c.langRestrictions.includes(i18n.locale)))
    .filter((c) => !c.tags.domain.some((tag) => hiddenTags.has(tag)))
    .sort((a, b) => a.tags.order - b.tags.order);
  const columnTags = [...new Set(entry.components.flatMap((c) => c.tags.domain))];
  const hasPatterns = entry.components.some((c) => c.kind === 'pattern');
  const title = text(entry.i18n.title, entry.name);
  const total = result?.totalRows ?? 0;
  const count = pageCount(total, size);
  const titled = (component: Component) => text(component.exportHeader.title, component.key);

  function toggleOrder(key: string) {
    const current = order.find((o) => o.componentKey === key);
    setOrder(current?.order === 'ASC' ? [{ componentKey: key, order: 'DESC' }] : current ? [] : [{ componentKey: key, order: 'ASC' }]);
    setPage(1);
  }

  async function confirmDeletion(row: ReferenceValue) {
    setDeleting(null);
    const outcome = await outbox.submit(rowDeletion(view.name, entry, [row.naturalKey]));
    if (outcome.status === 'done') {
      showToast('success', t`The line ${row.naturalKey} has been deleted.`);
      setGeneration((g) => g + 1);
    } else if (outcome.status === 'queued') {
      showToast('info', t`Saved on this device.`, t`It will be sent to the server as soon as the network is back.`);
    } else {
      const referring = (outcome.error.params as { referring?: Array<{ dataName: string; naturalKey: string }> }).referring;
      showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)), referring?.map((r) => `${r.dataName} ${r.naturalKey}`).join(', '));
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
        description={<Trans>{i18n.number(total)} lines</Trans>}
        actions={
          <>
            <Button variant="outline" aria-expanded={showFilters} onClick={() => setShowFilters((s) => !s)}>
              <Filter aria-hidden />
              <Trans>Filters</Trans>
              {filters.length ? ` (${filters.length})` : ''}
            </Button>
            {hasPatterns ? (
              <Button variant="outline" aria-pressed={vertical} onClick={() => setVertical((v) => !v)}>
                {vertical ? <Columns3 aria-hidden /> : <Rows3 aria-hidden />}
                {vertical ? <Trans>Horizontal</Trans> : <Trans>Vertical</Trans>}
              </Button>
            ) : null}
            <ExportMenu application={view.name} entry={entry} query={query} filtered={filters.length > 0} total={total} />
          </>
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {columnTags.length > 0 ? (
        <div className="mb-3 flex flex-wrap items-center gap-2" role="group" aria-label={t`Columns by tag`}>
          {columnTags.map((tag) => {
            const shown = !hiddenTags.has(tag);
            return (
              <Button
                key={tag}
                size="sm"
                variant={shown ? 'secondary' : 'outline'}
                aria-pressed={shown}
                onClick={() => setHiddenTags((current) => new Set(shown ? [...current, tag] : [...current].filter((x) => x !== tag)))}
              >
                {text(model.domainTags.find((d) => d.name === tag)?.labels, tag)}
              </Button>
            );
          })}
        </div>
      ) : null}
      {showFilters ? (
        <div className="mb-4 rounded-lg border border-border bg-card p-4">
          <FilterPanel
            components={visible.map((component) => ({ component, title: titled(component) }))}
            filters={filters}
            onChange={(next) => {
              setFilters(next);
              setPage(1);
            }}
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

      <Table aria-busy={loading} data-testid="reference-table">
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Line</Trans>
            </TableHead>
            {visible.map((component) => {
              const sorted = order.find((o) => o.componentKey === component.key)?.order;
              return (
                <TableHead key={component.key} aria-sort={sorted === 'ASC' ? 'ascending' : sorted === 'DESC' ? 'descending' : undefined}>
                  <button type="button" className="inline-flex min-h-11 items-center gap-1 text-left" title={text(component.exportHeader.description)} onClick={() => toggleOrder(component.key)}>
                    {titled(component)}
                    {sorted === 'ASC' ? <ArrowUp className="size-4" aria-hidden /> : sorted === 'DESC' ? <ArrowDown className="size-4" aria-hidden /> : null}
                  </button>
                </TableHead>
              );
            })}
            <TableHead className={`bg-muted ${stickyEnd}`}>
              <span className="sr-only">
                <Trans>Actions</Trans>
              </span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {result?.referenceValues.map((row) => {
            const display = row[`__display_${i18n.locale}`] ?? rowDisplay(entry, row.values, row.naturalKey, i18n.locale, model.defaultLanguage);
            return (
              <TableRow key={row.id} data-testid="reference-row" data-key={row.naturalKey}>
                <TableCell className="font-medium whitespace-nowrap">{display}</TableCell>
                {visible.map((component) => (
                  <TableCell key={component.key}>
                    <RowValue
                      component={component}
                      value={row.values[component.key]}
                      vertical={vertical}
                      onOpenReference={(reference, naturalKey) => setDetails({ reference, naturalKey })}
                      onOpenTable={(name, rows) => setTable({ title: name, rows })}
                    />
                  </TableCell>
                ))}
                <TableCell className={`whitespace-nowrap bg-card ${stickyEnd}`}>
                  <Button variant="ghost" size="icon" aria-label={t`Details of ${display}`} onClick={() => setDetails({ reference: entry.name, naturalKey: row.naturalKey })}>
                    <FileSearch aria-hidden />
                  </Button>
                  {canDelete ? (
                    <Button variant="ghost" size="icon" aria-label={t`Delete ${display}`} onClick={() => setDeleting(row)}>
                      <Trash2 aria-hidden />
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {result && result.referenceValues.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">
          <Trans>No line matches.</Trans>
        </p>
      ) : null}

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <label className="flex items-center gap-2">
          <Trans>Lines per page</Trans>
          <NativeSelect
            value={size}
            onChange={(event) => {
              setSize(Number(event.target.value));
              setPage(1);
            }}
          >
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

      <Dialog open={table !== null} onOpenChange={(open) => !open && setTable(null)}>
        <DialogContent closeLabel={t`Close`} className="max-w-3xl">
          <DialogHeader>
            <DialogTitle>{table?.title}</DialogTitle>
          </DialogHeader>
          {table && table.rows.length > 0 ? (
            <Table>
              <TableHeader>
                <TableRow>
                  {Object.keys(table.rows[0]).map((key) => (
                    <TableHead key={key}>{key}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {table.rows.map((row, index) => (
                  <TableRow key={index}>
                    {Object.values(row).map((cell, i) => (
                      <TableCell key={i}>{cell}</TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : null}
        </DialogContent>
      </Dialog>

      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent closeLabel={t`Close`}>
          <DialogHeader>
            <DialogTitle>
              <Trans>Delete the line {deleting?.naturalKey}?</Trans>
            </DialogTitle>
          </DialogHeader>
          <p>
            <Trans>It is refused when other data point to it.</Trans>
          </p>
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
