import { Fragment, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Pencil, Plus, Trash2 } from 'lucide-react';
import { rightsByType } from '@/domain/additionalFiles/authorization';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, stickyEnd } from '@/components/ui/table';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pageOf } from '@/lib/paging';
import { ListPager } from '@/components/ListPager';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastOutcome } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { fileAuthorizationRevoke, fileAuthorizationsRead, type FileAuthorization } from '../api';
import { useOperationLabels } from '../operationLabels';

/** Authorizations shown at once: thousands of rows with their buttons would make a tablet wait at every change. */
const AUTHORIZATIONS_PER_PAGE = 30;

/** The additional-file authorizations the caller may see, with their rights per file type, a page at a time; add, edit, revoke. */
export function FileAuthorizationsPage({ application }: { application: LoadedApplication }) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const { view, model } = application;
  const labels = useOperationLabels();
  const read = fileAuthorizationsRead(view.name);
  const { data, error, offlineSince, reload } = useKeptQuery(read.queryKey, read.read);
  const list = data ?? null;
  const offlineFrom = application.offlineSince ?? offlineSince;
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [revoking, setRevoking] = useState<FileAuthorization | null>(null);
  const [chosenPage, setPage] = useState(1);
  const all = list?.authorizationResults ?? [];
  const count = pageCount(all.length, AUTHORIZATIONS_PER_PAGE);
  // A revocation may empty the last page: the one before is shown.
  const page = Math.min(chosenPage, count);
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const typeTitle = (name: string) => text(model.additionalFiles.find((type) => type.name === name)?.i18n.title, name);
  const appTitle = text(view.title, view.name);

  async function revoke(authorization: FileAuthorization) {
    setRevoking(null);
    const outcome = await submitChange(fileAuthorizationRevoke(view.name, authorization));
    toastOutcome(i18n, outcome, t`The authorization ${authorization.name} has been revoked.`);
    if (outcome.status === 'done') reload();
  }

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;
  const adminTypes = new Set(list?.authorizationsForUser.adminTypes ?? []);
  const mayChange = (authorization: FileAuthorization) =>
    list?.authorizationsForUser.isAdministrator ||
    Object.keys(rightsByType(authorization.additionalFiles)).every((type) => adminTypes.has(type));
  const mayAdd = list ? list.authorizationsForUser.isAdministrator || adminTypes.size > 0 : false;

  return (
    <div className="grid grid-cols-1 gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Additional files`, href: `/applications/${view.name}/additionalFiles` },
          { label: t`Rights` },
        ]}
      />
      <PageHeader
        title={<Trans>Rights on the additional files of {appTitle}</Trans>}
        actions={
          mayAdd ? (
            <Button asChild>
              <Link
                to="/applications/$applicationName/additionalFiles/authorizations/$authorizationId"
                params={{ applicationName: view.name, authorizationId: 'new' }}
              >
                <Plus aria-hidden />
                <Trans>Add an authorization</Trans>
              </Link>
            </Button>
          ) : null
        }
      />
      {offlineFrom ? <OfflineNotice fetchedAt={offlineFrom} /> : null}
      {list ? (
        <Table data-testid="file-authorizations-table">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12 px-1 sm:px-3">
                <span className="sr-only">{t`Details`}</span>
              </TableHead>
              <TableHead>
                <Trans>Authorization</Trans>
              </TableHead>
              <TableHead className="hidden sm:table-cell">
                <Trans>Users</Trans>
              </TableHead>
              <TableHead className={`bg-muted ${stickyEnd}`}>
                <span className="sr-only">{t`Actions`}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {pageOf(all, page, AUTHORIZATIONS_PER_PAGE).map((authorization) => {
              const users = authorization.users.map((u) => u.login).join(', ');
              return (
                <Fragment key={authorization.uuid}>
                  <TableRow data-testid="file-authorization-row" data-name={authorization.name}>
                    <TableCell className="px-1 sm:px-3">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-expanded={open.has(authorization.uuid)}
                        aria-label={t`Show the rights of ${authorization.name}`}
                        onClick={() =>
                          setOpen(
                            (set) =>
                              new Set(
                                set.has(authorization.uuid)
                                  ? [...set].filter((k) => k !== authorization.uuid)
                                  : [...set, authorization.uuid],
                              ),
                          )
                        }
                      >
                        {open.has(authorization.uuid) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                      </Button>
                    </TableCell>
                    <TableCell className="break-words">
                      <span className="font-medium">{authorization.name}</span>
                      <span className="block text-sm text-muted-foreground sm:hidden">{users}</span>
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">{users}</TableCell>
                    <TableCell className={`whitespace-nowrap bg-card px-1 sm:px-3 ${stickyEnd}`}>
                      {mayChange(authorization) ? (
                        <>
                          <Button asChild variant="ghost" size="icon">
                            <Link
                              to="/applications/$applicationName/additionalFiles/authorizations/$authorizationId"
                              params={{ applicationName: view.name, authorizationId: authorization.uuid }}
                              aria-label={t`Edit ${authorization.name}`}
                            >
                              <Pencil aria-hidden />
                            </Link>
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={t`Revoke ${authorization.name}`}
                            onClick={() => setRevoking(authorization)}
                          >
                            <Trash2 aria-hidden />
                          </Button>
                        </>
                      ) : null}
                    </TableCell>
                  </TableRow>
                  {open.has(authorization.uuid) ? (
                    <TableRow>
                      <TableCell colSpan={4}>
                        <ul className="grid gap-1 text-sm">
                          {Object.entries(rightsByType(authorization.additionalFiles)).map(([type, operations]) => (
                            <li key={type}>
                              <span className="font-medium">{typeTitle(type)}</span> —{' '}
                              {operations.map((operation) => labels[operation]).join(', ')}
                            </li>
                          ))}
                        </ul>
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
      <ListPager total={all.length} size={AUTHORIZATIONS_PER_PAGE} page={page} onChange={setPage} />
      {list && list.authorizationResults.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">
          <Trans>No authorization on additional files yet.</Trans>
        </p>
      ) : null}

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
