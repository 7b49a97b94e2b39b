import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { periodDates } from '../dates';
import type { PeriodGroup } from '../periods';

interface PeriodsCardProps {
  groups: PeriodGroup[];
  selected: string | null;
  onSelect: (key: string) => void;
  /** The export of the dataset's published rows the caller may read; null when the device lacks the scope rows to ask for them. */
  readableRowsHref: string | null;
}

/** The periods of the dataset, each with its number of versions and the one published; choosing one lists its versions. */
export function PeriodsCard({ groups, selected, onSelect, readableRowsHref }: PeriodsCardProps) {
  const { t, i18n } = useLingui();
  return (
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
                <TableRow
                  key={group.key}
                  aria-selected={group.key === selected}
                  className={group.key === selected ? 'bg-muted' : undefined}
                >
                  <TableCell>
                    <Button
                      variant="link"
                      className="h-auto whitespace-normal px-0 text-left"
                      onClick={() => onSelect(group.key)}
                    >
                      {periodDates(i18n, group) ?? t`whole data`}
                    </Button>
                  </TableCell>
                  <TableCell>{group.versions.length}</TableCell>
                  <TableCell>
                    {group.published ? t`version ${group.published.number} published` : t`not published`}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <ReadableRowsNote href={readableRowsHref} />
      </CardContent>
    </Card>
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
