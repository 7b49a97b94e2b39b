import { useMemo } from 'react';
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
import { useFreshKeptQuery } from '@/offline/useFreshKeptQuery';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { scopeLabelsOf } from '../api';
import { useEditedRightsRequest } from '../hooks/useEditedRightsRequest';
import { requestOptionsRead, rightsRequestRead } from '../queries';
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
  editedItem,
}: {
  application: LoadedApplication<ApplicationOutline>;
  requestId: string;
  /** A refused request reopened from the pending changes (its outbox id): the form opens with it, sending replaces it. */
  editedItem?: number;
}) {
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const isNew = requestId === 'new';
  const edited = useEditedRightsRequest(editedItem, view.name, requestId);
  const optionsRead = requestOptionsRead(view.name);
  const kept = useKeptQuery(optionsRead.queryKey, optionsRead.read);
  const requestRead = rightsRequestRead(view.name, requestId);
  // The request's form starts from it as the server has it now (or, offline, as kept).
  const found = useFreshKeptQuery(requestRead.queryKey, requestRead.read, { enabled: !isNew });
  const options = kept.data ?? null;
  const request = (!isNew && found.data?.request) || null;
  const offlineSince =
    application.offlineSince ?? kept.offlineSince ?? (isNew ? undefined : (found.offlineSince ?? found.data?.keptAt));
  const error = kept.error ?? (isNew ? undefined : found.error);
  const missing = !isNew && found.data !== undefined && found.data.request === null;

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
        <RequestDetails
          request={request}
          model={model}
          options={options}
          valueLabels={found.data?.valueLabels}
          scopeLabels={scopeLabels}
        />
      ) : null}
      {kind === 'send' || kind === 'modify' ? (
        <RightsRequestForm
          key={edited?.itemId ?? 'form'}
          applicationName={view.name}
          model={model}
          options={options}
          request={request}
          replaces={edited}
        />
      ) : null}
      {kind === 'grant' && request ? (
        <RightsRequestGrant applicationName={view.name} model={model} options={options} request={request} />
      ) : null}
    </div>
  );
}
