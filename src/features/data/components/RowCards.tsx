import { Fragment } from 'react';
import type { Component } from '@/domain/configuration/model';
import type { RowView } from '@/contract/rows';
import { RowActions } from './RowActions';
import { RowValue } from './RowValue';

interface RowCardsProps {
  rows: RowView[] | undefined;
  columns: Component[];
  loading: boolean;
  displayOf: (row: RowView) => string;
  titleOf: (component: Component) => string;
  canDelete: boolean;
  onDetails: (row: RowView) => void;
  onOpenReference: (reference: string, naturalKey: string) => void;
  onOpenTable: (title: string, rows: Array<Record<string, string>>) => void;
  onDelete: (row: RowView) => void;
}

/** The page's rows as cards, one under the other, for screens too narrow for the table: each row reads on its own. */
export function RowCards({ rows, columns, loading, displayOf, titleOf, canDelete, onDetails, onOpenReference, onOpenTable, onDelete }: RowCardsProps) {
  return (
    <ul aria-busy={loading} className={`grid gap-3 ${loading && rows ? 'opacity-60' : ''}`} data-testid="reference-cards">
      {rows?.map((row) => {
        const display = displayOf(row);
        return (
          <li key={row.id} className="min-w-0 rounded-lg border border-border bg-card p-3" data-testid="reference-card" data-key={row.naturalKey}>
            <div className="flex items-start justify-between gap-2">
              <p className="min-w-0 pt-2 font-medium wrap-anywhere">{display}</p>
              <div className="flex shrink-0">
                <RowActions display={display} canDelete={canDelete} onDetails={() => onDetails(row)} onDelete={() => onDelete(row)} />
              </div>
            </div>
            <dl className="mt-1 grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] items-center gap-x-3 text-sm">
              {columns.map((component) => (
                <Fragment key={component.key}>
                  <dt className="text-muted-foreground wrap-anywhere">{titleOf(component)}</dt>
                  <dd className="min-w-0 wrap-anywhere">
                    <RowValue component={component} value={row.values[component.key]} vertical narrow onOpenReference={onOpenReference} onOpenTable={onOpenTable} />
                  </dd>
                </Fragment>
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
