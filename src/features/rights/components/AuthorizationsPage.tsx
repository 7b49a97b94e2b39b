import { useMemo, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Globe, Plus } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pager } from '@/components/ui/pager';
import { Tabs, TabsContent } from '@/components/ui/tabs';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pagerPages } from '@/lib/paging';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { authorizationRevoke, scopeLabelsOf, type AuthorizationView } from '../api';
import { useAuthorizations } from '../hooks/useAuthorizations';
import { AUTHORIZATIONS_PER_PAGE, useAuthorizationsListing, type ListingMode } from '../hooks/useAuthorizationsListing';
import { AuthorizationDetailDialog } from './AuthorizationDetailDialog';
import { AuthorizationsFilters } from './AuthorizationsFilters';
import { AuthorizationsTable } from './AuthorizationsTable';

/** The authorizations of an application, by name or by user, with their details, creation, edition and revocation. */
export function AuthorizationsPage({ application }: { application: LoadedApplication }) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const router = useRouter();
  const { view, model } = application;
  const { authorizations, grantable, roles, error, offlineSince, forget } = useAuthorizations(view.name);
  const offlineFrom = application.offlineSince ?? offlineSince;
  const listing = useAuthorizationsListing(authorizations, grantable);
  const [detail, setDetail] = useState<AuthorizationView | null>(null);
  const [revoking, setRevoking] = useState<AuthorizationView | null>(null);

  const scopeLabels = useMemo(() => scopeLabelsOf(grantable), [grantable]);
  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);

  async function revoke(authorization: AuthorizationView) {
    setRevoking(null);
    const outcome = await submitChange(authorizationRevoke(view.name, authorization));
    toastOutcome(i18n, outcome, t`The authorization ${authorization.name} has been revoked.`);
    if (outcome.status === 'needs-attention') return;
    // The list is read again from the server, as after any revocation.
    void router.invalidate();
    forget(authorization.uuid);
  }

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;

  return (
    <div className="grid gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Data rights` },
        ]}
      />
      <PageHeader
        title={<Trans>Data rights of {appTitle}</Trans>}
        actions={
          roles.isAdministrator || roles.userManager ? (
            <>
              <Button asChild>
                <Link
                  to="/applications/$applicationName/authorizations/$authorizationId"
                  params={{ applicationName: view.name, authorizationId: 'new' }}
                >
                  <Plus aria-hidden />
                  <Trans>Add an authorization</Trans>
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link
                  to="/applications/$applicationName/authorizations/public/$authorizationId"
                  params={{ applicationName: view.name, authorizationId: 'new' }}
                >
                  <Globe aria-hidden />
                  <Trans>Add a public authorization</Trans>
                </Link>
              </Button>
            </>
          ) : null
        }
      />
      {offlineFrom ? <OfflineNotice fetchedAt={offlineFrom} /> : null}
      {/* The tabs hold the table they switch, so that the selected tab names an existing panel. */}
      <Tabs
        value={listing.mode}
        onValueChange={(value) => listing.chooseMode(value as ListingMode)}
        className="grid gap-4"
      >
        <AuthorizationsFilters listing={listing} />
        <TabsContent value={listing.mode} className="mt-0 grid gap-4">
          <AuthorizationsTable
            applicationName={view.name}
            model={model}
            scopeLabels={scopeLabels}
            listing={listing}
            roles={roles}
            onDetail={setDetail}
            onRevoke={setRevoking}
          />
          {listing.rows === 0 && authorizations ? (
            <p className="py-6 text-center text-muted-foreground">
              <Trans>Nothing to show.</Trans>
            </p>
          ) : null}
          {listing.rows > AUTHORIZATIONS_PER_PAGE ? (
            <Pager
              page={listing.page}
              count={listing.pageCount}
              pages={pagerPages(listing.page, listing.pageCount, 3)}
              onChange={listing.setPage}
              labels={{
                navigation: t`Pages`,
                previous: t`Previous page`,
                next: t`Next page`,
                page: (n) => t`Page ${n}`,
              }}
            />
          ) : null}
        </TabsContent>
      </Tabs>

      <AuthorizationDetailDialog
        detail={detail}
        model={model}
        scopeLabels={scopeLabels}
        onClose={() => setDetail(null)}
      />
      <ConfirmDialog
        open={revoking !== null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
        title={<Trans>Revoke {revoking?.name}?</Trans>}
        description={<Trans>Its users lose the rights it gives.</Trans>}
        confirmLabel={<Trans>Revoke</Trans>}
      />
    </div>
  );
}
