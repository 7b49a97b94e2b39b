import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Plus } from 'lucide-react';
import { managesRights } from '@/domain/applications/applicationView';
import type { ApplicationOutline } from '@/domain/applications/outline';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pagerPages } from '@/lib/paging';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import type { OutboxItem } from '@/offline/outboxTypes';
import { useOutboxItems } from '@/offline/useOutbox';
import { REQUESTS_PER_PAGE, useRightsRequestsList } from '../hooks/useRightsRequestsList';
import type { RightsRequestView } from '../requestsApi';
import { RequestCommentDialog } from './RequestCommentDialog';
import { RightsRequestsFilters } from './RightsRequestsFilters';
import { RightsRequestsTable } from './RightsRequestsTable';

/**
 * `/authorizationsRequest`: the caller's own requests, or every request for managers and user managers, newest
 * first, with the status filter, a search on the requester and a filter on one form field; the comment opens on
 * click. Requests saved on this device and not yet sent are listed above.
 */
export function RightsRequestsPage({ application }: { application: LoadedApplication<ApplicationOutline> }) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const treats = managesRights(view);
  const { filters, changeFilters, page, setPage, list, offlineSince, error } = useRightsRequestsList(view.name);
  const [comment, setComment] = useState<RightsRequestView | null>(null);

  const items = useOutboxItems();
  const isSave = (item: OutboxItem) => item.kind === 'rightsRequest.save' && item.summary.name === view.name;
  const waiting = (items ?? []).filter((item) => isSave(item) && item.status !== 'done');
  // A request the outbox has just sent is read back from the server: an applied change marks the list stale.

  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const count = pageCount(list?.total ?? 0, REQUESTS_PER_PAGE);

  return (
    <div className="grid gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Rights requests` },
        ]}
      />
      <PageHeader
        title={treats ? <Trans>Rights requests of {appTitle}</Trans> : <Trans>My rights requests on {appTitle}</Trans>}
        actions={
          <Button asChild>
            <Link
              to="/applications/$applicationName/authorizationsRequest/$requestId"
              params={{ applicationName: view.name, requestId: 'new' }}
            >
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

      <RightsRequestsFilters model={model} treats={treats} filters={filters} onChange={changeFilters} />

      {error ? <Alert variant="destructive">{translateServerError(i18n, error)}</Alert> : null}
      <RightsRequestsTable
        applicationName={view.name}
        requests={list?.rightsRequests ?? []}
        treats={treats}
        onComment={setComment}
      />
      {list && list.rightsRequests.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">
          <Trans>No request to show.</Trans>
        </p>
      ) : null}
      {list && list.total > REQUESTS_PER_PAGE ? (
        <Pager
          page={page}
          count={count}
          pages={pagerPages(page, count, 3)}
          onChange={setPage}
          labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }}
        />
      ) : null}

      <RequestCommentDialog request={comment} onClose={() => setComment(null)} />
    </div>
  );
}
