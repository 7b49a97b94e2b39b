import { useEffect, useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import { requestSubmitKind } from '@/domain/rights/rightsRequest';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { translateServerError } from '@/lib/i18n/serverMessages';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { scopeLabelsOf } from '../api';
import { fetchRequestOptions, fetchRightsRequest, type RequestOptions, type RightsRequestView } from '../requestsApi';
import { RequestDetails } from './RequestDetails';
import { RightsRequestForm } from './RightsRequestForm';
import { RightsRequestGrant } from './RightsRequestGrant';

/**
 * `/authorizationsRequest/new` and `/authorizationsRequest/{id}`: a new request; an open one to modify (its
 * requester) or to grant or close (managers, user managers); a treated one to read.
 */
export function RightsRequestPage({
  application,
  requestId,
}: {
  application: LoadedApplication<ApplicationOutline>;
  requestId: string;
}) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const isNew = requestId === 'new';
  const [options, setOptions] = useState<RequestOptions | null>(null);
  const [request, setRequest] = useState<RightsRequestView | null>(null);
  const [offlineSince, setOfflineSince] = useState<number | undefined>(application.offlineSince);
  const [error, setError] = useState<unknown>();
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    Promise.all([
      fetchRequestOptions(view.name),
      isNew ? Promise.resolve(null) : fetchRightsRequest(view.name, requestId),
    ])
      .then(([kept, found]) => {
        setOptions(kept.value);
        setRequest(found?.value ?? null);
        setOfflineSince((since) => since ?? kept.offlineSince ?? found?.offlineSince);
        setMissing(found !== null && found.value === null);
      })
      .catch(setError);
  }, [view.name, requestId, isNew]);

  const scopeLabels = useMemo(
    () => scopeLabelsOf(options ? { ...options, users: [], publicAuthorizations: [] } : null),
    [options],
  );
  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const listPath = `/applications/${view.name}/authorizationsRequest`;

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  if (missing) return <Alert variant="destructive">{t`This rights request does not exist.`}</Alert>;
  if (!options || (!isNew && !request)) return null;

  const kind =
    request && request.status === 'open'
      ? requestSubmitKind(options.authorizationsForUser.treatsRequests, false)
      : isNew
        ? 'send'
        : null;
  const title = isNew ? t`New rights request` : t`Rights request of ${request!.userLogin}`;
  return (
    <div className="grid gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Rights requests`, href: listPath },
          { label: title },
        ]}
      />
      <PageHeader
        title={title}
        description={isNew ? t`Ask the managers of ${appTitle} for the right to read its data.` : undefined}
      />
      {offlineSince ? <OfflineNotice fetchedAt={offlineSince} /> : null}
      {request && kind !== 'modify' ? (
        <RequestDetails request={request} model={model} options={options} scopeLabels={scopeLabels} />
      ) : null}
      {kind === 'send' || kind === 'modify' ? (
        <RightsRequestForm applicationName={view.name} model={model} options={options} request={request} />
      ) : null}
      {kind === 'grant' && request ? (
        <RightsRequestGrant applicationName={view.name} model={model} options={options} request={request} />
      ) : null}
    </div>
  );
}
