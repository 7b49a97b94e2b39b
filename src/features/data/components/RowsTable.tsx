import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { ApplicationModel, Component, DataEntry } from '@/domain/configuration/model';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import { withoutLeadingNullParts } from '@/domain/keys';
import type { ComponentOrder } from '@/domain/rows/rowQuery';
import { ScrollingTable, StickyTableHeader, TableBody, TableCell, TableHead, TableRow, stickyEndScrolling, stickyStart } from '@/components/ui/table';
import type { RowView } from '@/contract/rows';
import { useMediaQuery } from '@/lib/useMediaQuery';
import { RowActions } from './RowActions';
import { RowCards } from './RowCards';
import { RowValue } from './RowValue';

interface RowsTableProps {
  model: ApplicationModel;
  entry: DataEntry;
  /** The columns shown, in their order. */
  columns: Component[];
  rows: RowView[] | undefined;
  loading: boolean;
  order: ComponentOrder[];
  onSort: (key: string) => void;
  /** Values shown one under the other rather than side by side. */
  vertical: boolean;
  canDelete: boolean;
  onDetails: (target: { reference: string; naturalKey: string }) => void;
  onOpenTable: (title: string, rows: Array<Record<string, string>>) => void;
  onDelete: (row: RowView) => void;
}

/** One page of rows: a column per component (sorted by a tap on its title), details and deletion at the end of each row. */
export function RowsTable({ model, entry, columns, rows, loading, order, onSort, vertical, canDelete, onDetails, onOpenTable, onDelete }: RowsTableProps) {
  const { t, i18n } = useLingui();
  const text = (value: Record<string, string> | undefined, fallback = '') => localized(value, i18n.locale, model.defaultLanguage, fallback);
  const wide = useMediaQuery('(min-width: 640px)');
  const displayOf = (row: RowView) => {
    const shown = row[`__display_${i18n.locale}`] ?? rowDisplay(entry, row.values, row.naturalKey, i18n.locale, model.defaultLanguage);
    return shown === row.naturalKey ? withoutLeadingNullParts(shown) : shown;
  };
  // Below a tablet's width each row is a card; the table needs the room of its columns. One layout at a time, so
  // that a page holds each row once.
  if (!wide)
    return (
      <RowCards
        rows={rows}
        columns={columns}
        loading={loading}
        displayOf={displayOf}
        titleOf={(component) => text(component.exportHeader.title, component.key)}
        canDelete={canDelete}
        onDetails={(row) => onDetails({ reference: entry.name, naturalKey: row.naturalKey })}
        onOpenReference={(reference, naturalKey) => onDetails({ reference, naturalKey })}
        onOpenTable={onOpenTable}
        onDelete={onDelete}
      />
    );
  return (
    // The previous page stays, dimmed, while the next one is read: the table never goes blank between pages.
    <ScrollingTable
      aria-busy={loading}
      className={loading && rows ? 'opacity-60' : undefined}
      data-testid="reference-table"
      cue={{ text: t`More columns than the screen holds`, left: t`Show the columns on the left`, right: t`Show the columns on the right` }}
    >
      <StickyTableHeader>
        <TableRow>
          <TableHead className={`bg-muted ${stickyStart}`}>
            <Trans>Line</Trans>
          </TableHead>
          {columns.map((component) => {
            const sorted = order.find((o) => o.componentKey === component.key)?.order;
            return (
              <TableHead key={component.key} aria-sort={sorted === 'ASC' ? 'ascending' : sorted === 'DESC' ? 'descending' : undefined}>
                <button type="button" className="inline-flex min-h-11 items-center gap-1 text-left" title={text(component.exportHeader.description)} onClick={() => onSort(component.key)}>
                  {text(component.exportHeader.title, component.key)}
                  {sorted === 'ASC' ? <ArrowUp className="size-4" aria-hidden /> : sorted === 'DESC' ? <ArrowDown className="size-4" aria-hidden /> : null}
                </button>
              </TableHead>
            );
          })}
          <TableHead className={`bg-muted ${stickyEndScrolling}`}>
            <span className="sr-only">
              <Trans>Actions</Trans>
            </span>
          </TableHead>
        </TableRow>
      </StickyTableHeader>
      <TableBody>
        {rows?.map((row) => {
          const display = displayOf(row);
          return (
            <TableRow key={row.id} data-testid="reference-row" data-key={row.naturalKey}>
              <TableCell className={`min-w-28 max-w-64 bg-card font-medium break-words ${stickyStart}`}>{display}</TableCell>
              {columns.map((component) => (
                <TableCell key={component.key}>
                  <RowValue
                    component={component}
                    value={row.values[component.key]}
                    vertical={vertical}
                    onOpenReference={(reference, naturalKey) => onDetails({ reference, naturalKey })}
                    onOpenTable={onOpenTable}
                  />
                </TableCell>
              ))}
              <TableCell className={`whitespace-nowrap bg-card ${stickyEndScrolling}`}>
                <RowActions display={display} canDelete={canDelete} onDetails={() => onDetails({ reference: entry.name, naturalKey: row.naturalKey })} onDelete={() => onDelete(row)} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </ScrollingTable>
  );
}
