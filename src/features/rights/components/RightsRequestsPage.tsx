import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Eye, MessageSquareText, Plus } from 'lucide-react';
import { managesRights } from '@/domain/applications/applicationView';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { useOutboxItems } from '@/offline/useOutbox';
import { fetchRightsRequests, type RequestListQuery, type RightsRequestList, type RightsRequestView } from '../requestsApi';
import { RequestStatusLabel } from './RequestDetails';

const ROWS_PER_PAGE = 30;
/** The status filter of spec §9: open, close, all (default all). */
type StatusFilter = 'all' | 'open' | 'close';

/**
 * `/authorizationsRequest`: the caller's own requests, or every request for managers and user managers, newest
 * first, with the status filter, a search on the requester and a filter on one form field; the comment opens on
 * click. Requests saved on this device and not yet sent are listed above.
 */
export function RightsRequestsPage({ application }: { application: LoadedApplication<ApplicationOutline> }) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const treats = managesRights(view);
  const [list, setList] = useState<RightsRequestList | null>(null);
  const [offlineSince, setOfflineSince] = useState<number | undefined>();
  const [error, setError] = useState<unknown>();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [search, setSearch] = useState('');
  const [field, setField] = useState('');
  const [fieldValue, setFieldValue] = useState('');
  const [page, setPage] = useState(1);
  const [comment, setComment] = useState<RightsRequestView | null>(null);

  const saves = (useOutboxItems() ?? []).filter((item) => item.kind === 'rightsRequest.save' && item.summary.name === view.name);
  const waiting = saves.filter((item) => item.status !== 'done');
  const sent = saves.length - waiting.length;

  useEffect(() => {
    const query: RequestListQuery = {
      setted: status === 'all' ? null : status === 'close',
      search: search.trim() || undefined,
      fieldFilters: field && fieldValue.trim() ? [{ field, filter: fieldValue.trim() }] : undefined,
      offset: (page - 1) * ROWS_PER_PAGE,
      limit: ROWS_PER_PAGE,
    };
    let live = true;
    fetchRightsRequests(view.name, query)
      .then((kept) => {
        if (!live) return;
        setList(kept.value);
        setOfflineSince(kept.offlineSince);
        setError(undefined);
      })
      .catch((reason: unknown) => live && setError(reason));
    return () => {
      live = false;
    };
    // A request the outbox has just sent is read back from the server.
  }, [view.name, status, search, field, fieldValue, page, sent]);

  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const fields = model.rightsRequest?.fields ?? [];
  const date = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'short', timeStyle: 'short' });
  const count = pageCount(list?.total ?? 0, ROWS_PER_PAGE);
  // On a phone, managers see the comment under the requester: the table keeps to the screen's width.
  const commentButton = (request: RightsRequestView) => (
    <Button variant="ghost" className="h-auto min-h-11 max-w-full justify-start whitespace-normal px-1 text-left font-normal" onClick={() => setComment(request)} aria-label={t`Read the comment of ${request.userLogin}`}>
      <MessageSquareText aria-hidden className="shrink-0" />
      <span className="line-clamp-2 break-words">{request.comment}</span>
    </Button>
  );
  const filterChanged = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };

  return (
    <div className="grid gap-4">
      <Breadcrumb label={t`Breadcrumb`} crumbs={[{ label: t`Applications`, href: '/applications' }, { label: appTitle, href: `/applications/${view.name}` }, { label: t`Rights requests` }]} />
      <PageHeader
        title={treats ? <Trans>Rights requests of {appTitle}</Trans> : <Trans>My rights requests on {appTitle}</Trans>}
        actions={
          <Button asChild>
            <Link to="/applications/$applicationName/authorizationsRequest/$requestId" params={{ applicationName: view.name, requestId: 'new' }}>
              <Plus aria-hidden />
              <Trans>New request</Trans>
            </Link>
          </Button>
        }
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {waiting.length ? (
        <Alert variant="warning" data-testid="waiting-requests">
          <p className="flex items-center gap-2 font-medium">
            <Clock aria-hidden className="size-4" />
            <Trans>Saved on this device, waiting to be sent:</Trans>
          </p>
          <ul className="ml-6 list-disc">
            {waiting.map((item) => (
              <li key={item.id}>
                {(item.input as { comment?: string } | undefined)?.comment || t`a request without comment`}
                {item.status === 'needs-attention' ? ` — ${t`refused, see the pending changes`}` : null}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <div className="flex flex-wrap items-end gap-3">
        <div className="w-44">
          <FormField label={t`Status`}>
            <NativeSelect value={status} onChange={(event) => filterChanged(setStatus)(event.target.value as StatusFilter)}>
              <option value="all">{t`All`}</option>
              <option value="open">{t({ id: 'rightsRequest.status.open', message: 'Open' })}</option>
              <option value="close">{t`Treated`}</option>
            </NativeSelect>
          </FormField>
        </div>
        {treats ? (
          <div className="min-w-48 flex-1">
            <FormField label={t`Requester or comment`}>
              <Input type="search" value={search} onChange={(event) => filterChanged(setSearch)(event.target.value)} />
            </FormField>
          </div>
        ) : null}
        {treats && fields.length ? (
          <>
            <div className="w-48">
              <FormField label={t`Form field`}>
                <NativeSelect value={field} onChange={(event) => filterChanged(setField)(event.target.value)}>
                  <option value="">{t`Any field`}</option>
                  {fields.map((f) => (
                    <option key={f.name} value={f.name}>
                      {localized(f.i18n.title, i18n.locale, model.defaultLanguage, f.name)}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            </div>
            <div className="min-w-40 flex-1">
              <FormField label={t`Field contains`}>
                <Input type="search" value={fieldValue} disabled={!field} onChange={(event) => filterChanged(setFieldValue)(event.target.value)} />
              </FormField>
            </div>
          </>
        ) : null}
      </div>

      {error ? <Alert variant="destructive">{translateServerError(i18n, error)}</Alert> : null}
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
          {(list?.rightsRequests ?? []).map((request) => (
            <TableRow key={request.id} data-testid="rights-request-row" data-id={request.id} data-login={request.userLogin}>
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
                    params={{ applicationName: view.name, requestId: request.id }}
                    aria-label={request.status === 'open' && treats ? t`Treat the request of ${request.userLogin}` : t`Open the request of ${request.userLogin}`}
                  >
                    <Eye aria-hidden />
                  </Link>
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {list && list.rightsRequests.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">
          <Trans>No request to show.</Trans>
        </p>
      ) : null}
      {list && list.total > ROWS_PER_PAGE ? (
        <Pager page={page} count={count} pages={pagerPages(page, count, 3)} onChange={setPage} labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }} />
      ) : null}

      <Dialog open={comment !== null} onOpenChange={(value) => !value && setComment(null)}>
        <DialogContent closeLabel={t`Close`}>
          <DialogHeader>
            <DialogTitle>
              <Trans>Comment of {comment?.userLogin}</Trans>
            </DialogTitle>
            <DialogDescription>{comment ? date(comment.createDate) : null}</DialogDescription>
          </DialogHeader>
          <p className="whitespace-pre-wrap break-words">{comment?.comment}</p>
          {comment?.treatmentComment ? (
            <div>
              <p className="font-medium">
                <Trans>Answer of {comment.treatedByLogin}</Trans>
              </p>
              <p className="whitespace-pre-wrap break-words">{comment.treatmentComment}</p>
            </div>
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}
