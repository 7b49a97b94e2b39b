import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Eye, MessageSquareText } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { RightsRequestView } from '../requestsApi';
import { RequestStatusLabel } from './RequestDetails';

interface RightsRequestsTableProps {
  applicationName: string;
  requests: RightsRequestView[];
  /** Whoever treats requests sees the requester of each. */
  treats: boolean;
  onComment: (request: RightsRequestView) => void;
}

/** One page of requests: requester, comment (opened by a tap), dates, status, and the link to the request. */
export function RightsRequestsTable({ applicationName, requests, treats, onComment }: RightsRequestsTableProps) {
  const { t, i18n } = useLingui();
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'short', timeStyle: 'short' });
  // On a phone, managers see the comment under the requester: the table keeps to the screen's width.
  const commentButton = (request: RightsRequestView) => (
    <Button
      variant="ghost"
      className="h-auto min-h-11 max-w-full justify-start whitespace-normal px-1 text-left font-normal"
      onClick={() => onComment(request)}
      aria-label={t`Read the comment of ${request.userLogin}`}
    >
      <MessageSquareText aria-hidden className="shrink-0" />
      <span className="line-clamp-2 break-words">{request.comment}</span>
    </Button>
  );
  return (
    <Table data-testid="rights-requests-table">
      <TableHeader>
        <TableRow>
          {treats ? (
            <TableHead>
              <Trans>Requester</Trans>
            </TableHead>
          ) : null}
          {treats ? (
            <TableHead className="hidden lg:table-cell">
              <Trans>E-mail</Trans>
            </TableHead>
          ) : null}
          <TableHead className={treats ? 'hidden sm:table-cell' : undefined}>
            <Trans>Comment</Trans>
          </TableHead>
          <TableHead className="hidden sm:table-cell">
            <Trans>Created</Trans>
          </TableHead>
          <TableHead className="hidden md:table-cell">
            <Trans>Updated</Trans>
          </TableHead>
          <TableHead>
            <Trans>Status</Trans>
          </TableHead>
          <TableHead>
            <span className="sr-only">{t`Actions`}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {requests.map((request) => (
          <TableRow
            key={request.id}
            data-testid="rights-request-row"
            data-id={request.id}
            data-login={request.userLogin}
          >
            {treats ? (
              <TableCell>
                <span className="break-all font-medium">{request.userLogin}</span>
                <span className="block sm:hidden">{commentButton(request)}</span>
              </TableCell>
            ) : null}
            {treats ? <TableCell className="hidden break-all lg:table-cell">{request.userEmail}</TableCell> : null}
            <TableCell className={treats ? 'hidden max-w-[14rem] sm:table-cell' : 'max-w-[14rem]'}>
              {commentButton(request)}
              <span className="block text-sm text-muted-foreground sm:hidden">{date(request.createDate)}</span>
            </TableCell>
            <TableCell className="hidden whitespace-nowrap sm:table-cell">{date(request.createDate)}</TableCell>
            <TableCell className="hidden whitespace-nowrap md:table-cell">{date(request.updateDate)}</TableCell>
            <TableCell>
              <RequestStatusLabel status={request.status} />
            </TableCell>
            <TableCell className="px-1 sm:px-3">
              <Button asChild variant="ghost" size="icon">
                <Link
                  to="/applications/$applicationName/authorizationsRequest/$requestId"
                  params={{ applicationName, requestId: request.id }}
                  aria-label={
                    request.status === 'open' && treats
                      ? t`Treat the request of ${request.userLogin}`
                      : t`Open the request of ${request.userLogin}`
                  }
                >
                  <Eye aria-hidden />
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
