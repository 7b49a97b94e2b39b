import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { CircleAlert } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { pageCount, pageOf } from '@/lib/paging';
import { ListPager } from '@/components/ListPager';
import { describeProblem } from '@/lib/i18n/problems';
import { useMediaQuery } from '@/lib/useMediaQuery';
import { periodDates } from '../dates';
import { kiloBytes, type PeriodGroup } from '../periods';
import { VersionCards } from './VersionCards';
import { VersionActions, VersionDeposited, VersionPublished, type VersionHandlers } from './VersionParts';

interface VersionsCardProps extends VersionHandlers {
  period: PeriodGroup;
}

/** Versions shown at once: a dataset deposited again every day for years has thousands, each with its switch and buttons. */
const VERSIONS_PER_PAGE = 30;

/**
 * Why a version's latest publication change did not happen: it was refused once its job ran. Said under the table,
 * where a phone shows it whole: in its row, the reason sat in a column scrolled out of sight, a tall blank row.
 */
function FailedJob({ version }: { version: PeriodGroup['versions'][number] }) {
  const { i18n } = useLingui();
  const job = version.job!;
  const reason = job.error ? describeProblem(i18n, job.error) : '';
  const number = version.number;
  return (
    <p className="flex items-start gap-2" data-testid="version-job-failed" data-version={number}>
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        {job.kind === 'unpublish' ? (
          <Trans>
            The unpublication of version {number} failed: {reason}
          </Trans>
        ) : (
          <Trans>
            The publication of version {number} failed: {reason}
          </Trans>
        )}
      </span>
    </p>
  );
}

/**
 * The versions of one period, newest first, a page at a time: who deposited and published each, its publication
 * switch, download and deletion. Keyed by the period where it is used, so that another period opens on its first page.
 */
export function VersionsCard({ period, ...handlers }: VersionsCardProps) {
  const { t, i18n } = useLingui();
  // Below a tablet's width each version is a card: the table's dates and authors scrolled out of sight there.
  const wide = useMediaQuery('(min-width: 640px)');
  const newestFirst = [...period.versions].reverse();
  const count = pageCount(newestFirst.length, VERSIONS_PER_PAGE);
  const [chosenPage, setPage] = useState(1);
  // A deletion may empty the last page: the one before is shown.
  const page = Math.min(chosenPage, count);
  const shown = pageOf(newestFirst, page, VERSIONS_PER_PAGE);
  const failed = shown.filter((version) => version.job?.status === 'failed');
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans>Versions of {periodDates(i18n, period) ?? t`the dataset`}</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {wide ? (
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
              {shown.map((version) => (
                <TableRow
                  key={version.id}
                  title={version.comment || undefined}
                  data-testid="version-row"
                  data-published={version.published}
                >
                  <TableCell>{version.number}</TableCell>
                  <TableCell>
                    <code>{version.id.slice(0, 8)}</code>
                  </TableCell>
                  <TableCell>{i18n.number(kiloBytes(version.size))}</TableCell>
                  <TableCell>
                    <VersionDeposited version={version} />
                  </TableCell>
                  <TableCell>
                    <VersionPublished version={version} />
                  </TableCell>
                  <TableCell className={`whitespace-nowrap bg-card ${stickyEnd}`}>
                    <VersionActions version={version} {...handlers} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <VersionCards versions={shown} {...handlers} />
        )}
        {failed.length > 0 ? (
          <Alert variant="destructive" className="mt-3 grid gap-1 text-sm">
            {failed.map((version) => (
              <FailedJob key={version.id} version={version} />
            ))}
          </Alert>
        ) : null}
        <ListPager total={newestFirst.length} size={VERSIONS_PER_PAGE} page={page} onChange={setPage} />
      </CardContent>
    </Card>
  );
}
