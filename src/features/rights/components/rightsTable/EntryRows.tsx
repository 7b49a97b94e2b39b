import { Fragment } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { EntryOutline } from '@/domain/applications/outline';
import { entryCheck, entryState, grantableOnEntry, lockedOperations, toggleEntry } from '@/domain/rights/rightsTable';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import { operationLabels } from '../../operationLabels';
import type { RightsTableModel } from '../../hooks/useRightsTable';
import { RightBox } from './RightBox';
import { LargeTree, SmallTreeLevel } from './ScopeNodeRows';

/** One entry's row, then, when it is opened, the trees of its scope: whole when small, a level at a time when large. */
export function EntryRows({ table, entry }: { table: RightsTableModel; entry: EntryOutline }) {
  const { t, i18n } = useLingui();
  const { state, onChange, operations } = table;
  const columns = table.columnsOf(entry);
  const rights = entryState(state, entry.name);
  const locked = lockedOperations(entry, rights.all);
  const scopes = table.grantable.referenceScopes[entry.name] ?? [];
  const open = table.isOpen(entry.name);
  const title = table.title(entry);
  return (
    <>
      <TableRow data-testid="rights-entry" data-entry={entry.name}>
        <TableCell className="px-1 text-sm sm:px-3 sm:text-base">
          <div className="flex items-center gap-1">
            {scopes.length ? (
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-expanded={open}
                aria-label={t`Restrict ${table.title(entry)} to parts of its scope`}
                onClick={() => table.toggleOpen(entry.name)}
              >
                {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
              </Button>
            ) : (
              <span className="inline-block w-2 sm:w-11" aria-hidden />
            )}
            <span className="font-medium [overflow-wrap:anywhere]">{title}</span>
          </div>
        </TableCell>
        {operations.map((op) => (
          <TableCell key={op} className="px-0 text-center sm:px-1">
            {columns.has(op) ? (
              <RightBox
                table={table}
                entry={entry}
                operation={op}
                checked={entryCheck(state, entry.name, op)}
                locked={locked.has(op)}
                allowed={grantableOnEntry(table.granter, entry.name, op)}
                label={`${i18n._(operationLabels[op])} — ${title}`}
                onToggle={(checked) => onChange(toggleEntry(state, entry, op, checked))}
              />
            ) : (
              <span className="text-muted-foreground" aria-label={t`not applicable`}>
                —
              </span>
            )}
          </TableCell>
        ))}
      </TableRow>
      {open
        ? scopes.map((scope) => {
            const place = { table, entry, component: scope.id, tree: scope.nodes, columns };
            const reference = table.scopeTitle(scope);
            return (
              <Fragment key={scope.id}>
                <TableRow className="bg-muted/30">
                  <TableCell colSpan={operations.length + 1} className="pl-14 text-sm text-muted-foreground">
                    <Trans>By {reference}</Trans>
                    {scope.nodes.length === 0 ? (
                      <>
                        {' — '}
                        <Trans>no rows yet in this reference</Trans>
                      </>
                    ) : null}
                  </TableCell>
                </TableRow>
                {scope.rootCount === undefined ? (
                  <SmallTreeLevel place={place} nodes={scope.nodes} depth={1} parentKey={`${entry.name}/${scope.id}`} />
                ) : (
                  <LargeTree place={place} scope={scope} />
                )}
              </Fragment>
            );
          })
        : null}
    </>
  );
}
