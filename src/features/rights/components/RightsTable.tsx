import { Trans, useLingui } from '@lingui/react/macro';
import type { EntryOutline } from '@/domain/applications/outline';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { operationHelp, operationLabels } from '../operationLabels';
import { useRightsTable, type RightsTableProps } from '../hooks/useRightsTable';
import { RightsLegend } from './RightsLegend';
import { EntryRows } from './rightsTable/EntryRows';

/**
 * Per data entry, the operations given on the whole entry and, for data with an authorization scope, on the
 * nodes of its scope trees (opened on demand). Boxes a dependency imposes are locked, boxes the granter
 * does not hold are disabled.
 */
export function RightsTable(props: RightsTableProps) {
  const { t, i18n } = useLingui();
  const table = useRightsTable(props);
  const { model, operations } = table;
  const references = model.data.filter((entry) => entry.kind === 'reference');
  const dataTypes = model.data.filter((entry) => entry.kind !== 'reference');
  const section = (label: string, entries: EntryOutline[]) =>
    entries.length ? (
      <>
        <TableRow>
          <TableCell
            colSpan={operations.length + 1}
            className="bg-muted/60 text-sm font-semibold uppercase tracking-wide"
          >
            {label}
          </TableCell>
        </TableRow>
        {entries.map((entry) => (
          <EntryRows key={entry.name} table={table} entry={entry} />
        ))}
      </>
    ) : null;
  return (
    // A size container: the rows of "Show more" measure the table's box by it.
    <div className="@container grid gap-2">
      <Table data-testid="rights-table" className="min-w-[22rem]">
        <TableHeader>
          <TableRow>
            <TableHead className="w-full px-2 sm:px-3">
              <Trans>Data</Trans>
            </TableHead>
            {operations.map((op) => (
              <TableHead
                key={op}
                className="w-11 min-w-11 px-0 text-center align-bottom text-xs sm:px-1 sm:text-sm"
                title={i18n._(operationHelp[op])}
              >
                {/* Upright on a phone, so that five columns of boxes fit beside the names. */}
                <span className="inline-block max-sm:rotate-180 max-sm:[writing-mode:vertical-rl]">
                  {i18n._(operationLabels[op])}
                </span>
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {section(t`Data types`, dataTypes)}
          {section(t`References`, references)}
        </TableBody>
      </Table>
      <RightsLegend
        operations={operations}
        lockedNote={table.lockedNote}
        notGrantableNote={table.granter.manager ? undefined : table.notGrantableNote}
      />
    </div>
  );
}
