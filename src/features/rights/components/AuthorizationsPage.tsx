import { Fragment, useEffect, useMemo, useState } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight, Eye, Globe, Pencil, Plus, Trash2 } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ApiError } from '@/lib/api/apiError';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageCount, pageOf, pagerPages } from '@/lib/paging';
import { showToast } from '@/lib/toast';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { outbox } from '@/offline/outboxInstance';
import { authorizationRevoke, fetchAuthorizations, fetchGrantable, scopeLabelsOf, type AuthorizationView, type Grantable } from '../api';
import { PrivilegeSummary } from './PrivilegeSummary';

const ROWS_PER_PAGE = 30;
type View = 'byName' | 'byUser';
type UserFilter = 'allUsers' | 'userWithAuth' | 'userWithoutAuth';

/** The authorizations of an application, by name or by user, with their details, creation, edition and revocation. */
export function AuthorizationsPage({ application }: { application: LoadedApplication }) {
  const { t, i18n } = useLingui();
  const router = useRouter();
  const { view, model } = application;
  const [authorizations, setAuthorizations] = useState<AuthorizationView[] | null>(null);
  const [grantable, setGrantable] = useState<Grantable | null>(null);
  const [roles, setRoles] = useState({ isAdministrator: false, userManager: false });
  const [error, setError] = useState<unknown>();
  const [mode, setMode] = useState<View>('byName');
  const [showPublic, setShowPublic] = useState(false);
  const [userFilter, setUserFilter] = useState<UserFilter>('allUsers');
  const [search, setSearch] = useState('');
  const [descending, setDescending] = useState(false);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [detail, setDetail] = useState<AuthorizationView | null>(null);
  const [revoking, setRevoking] = useState<AuthorizationView | null>(null);

  useEffect(() => {
    Promise.all([fetchAuthorizations(view.name), fetchGrantable(view.name)])
      .then(([list, options]) => {
        setAuthorizations(list.authorizationResults);
        setRoles(list.authorizationsForUser);
        setGrantable(options);
      })
      .catch(setError);
  }, [view.name]);

  const scopeLabels = useMemo(() => scopeLabelsOf(grantable), [grantable]);
  const publicOnes = (authorizations ?? []).filter((a) => a.isPublic);
  const named = (authorizations ?? []).filter((a) => a.isPublic === showPublic && a.name.toLowerCase().includes(search.trim().toLowerCase()));
  const sortedNames = [...named].sort((a, b) => (descending ? -1 : 1) * a.name.localeCompare(b.name, i18n.locale));
  const users = useMemo(() => {
    const list = (grantable?.users ?? []).filter((u) => u.id !== '_public_' && u.login.toLowerCase().includes(search.trim().toLowerCase()));
    const of = (id: string) => (authorizations ?? []).filter((a) => a.users.some((u) => u.id === id));
    return list
      .map((user) => ({ user, authorizations: of(user.id) }))
      .filter((entry) => (userFilter === 'allUsers' ? true : userFilter === 'userWithAuth' ? entry.authorizations.length > 0 : entry.authorizations.length === 0))
      .sort((a, b) => (descending ? -1 : 1) * a.user.login.localeCompare(b.user.login, i18n.locale));
  }, [grantable, authorizations, search, userFilter, descending, i18n.locale]);

  const rows = mode === 'byName' ? sortedNames.length : users.length;
  const count = pageCount(rows, ROWS_PER_PAGE);
  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const toggle = (key: string) => setOpen((current) => new Set(current.has(key) ? [...current].filter((k) => k !== key) : [...current, key]));

  async function revoke(authorization: AuthorizationView) {
    setRevoking(null);
    const outcome = await outbox.submit(authorizationRevoke(view.name, authorization));
    if (outcome.status === 'needs-attention') return showToast('error', translateServerError(i18n, new ApiError(outcome.error.status, outcome.error.code, outcome.error.params)));
    showToast('success', t`The authorization ${authorization.name} has been revoked.`);
    // The list is read again from the server, as after any revocation.
    router.invalidate();
    setAuthorizations((list) => list?.filter((a) => a.uuid !== authorization.uuid) ?? null);
  }

  if (error) return <Alert variant="destructive">{translateServerError(i18n, error)}</Alert>;

  return (
    <div className="grid gap-4">
      <Breadcrumb label={t`Breadcrumb`} crumbs={[{ label: t`Applications`, href: '/applications' }, { label: appTitle, href: `/applications/${view.name}` }, { label: t`Data rights` }]} />
      <PageHeader
        title={<Trans>Data rights of {appTitle}</Trans>}
        actions={
          roles.isAdministrator || roles.userManager ? (
            <>
              <Button asChild>
                <Link to="/applications/$applicationName/authorizations/$authorizationId" params={{ applicationName: view.name, authorizationId: 'new' }}>
                  <Plus aria-hidden />
                  <Trans>Add an authorization</Trans>
                </Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/applications/$applicationName/authorizations/public/$authorizationId" params={{ applicationName: view.name, authorizationId: 'new' }}>
                  <Globe aria-hidden />
                  <Trans>Add a public authorization</Trans>
                </Link>
              </Button>
            </>
          ) : null
        }
      />
      {/* The tabs hold the table they switch, so that the selected tab names an existing panel. */}
      <Tabs
        value={mode}
        onValueChange={(value) => {
          setMode(value as View);
          setPage(1);
        }}
        className="grid gap-4"
      >
        <div className="flex flex-wrap items-end gap-3">
          <TabsList aria-label={t`Show`}>
            <TabsTrigger value="byName" className="min-h-11">
              <Trans>By authorization</Trans>
            </TabsTrigger>
            <TabsTrigger value="byUser" className="min-h-11" disabled={showPublic}>
              <Trans>By user</Trans>
            </TabsTrigger>
          </TabsList>
          {publicOnes.length > 0 ? (
            <label className="flex min-h-11 items-center gap-2">
              <Checkbox
                checked={showPublic}
                disabled={mode === 'byUser'}
                onCheckedChange={(checked) => {
                  setShowPublic(checked === true);
                  setPage(1);
                }}
              />
              <Trans>Public authorizations</Trans>
            </label>
          ) : null}
          {mode === 'byUser' ? (
            <div className="w-56">
              <FormField label={t`Users`}>
                <NativeSelect value={userFilter} onChange={(event) => setUserFilter(event.target.value as UserFilter)}>
                  <option value="allUsers">{t`All users`}</option>
                  <option value="userWithAuth">{t`Users with an authorization`}</option>
                  <option value="userWithoutAuth">{t`Users without an authorization`}</option>
                </NativeSelect>
              </FormField>
            </div>
          ) : null}
          <div className="min-w-56 flex-1">
            <FormField label={t`Search`}>
              <Input type="search" value={search} onChange={(event) => { setSearch(event.target.value); setPage(1); }} />
            </FormField>
          </div>
        </div>

        <TabsContent value={mode} className="mt-0 grid gap-4">
          <Table data-testid="authorizations-table">
            <TableHeader>
              <TableRow>
                <TableHead className="w-12">
                  <span className="sr-only">{t`Open`}</span>
                </TableHead>
                <TableHead aria-sort={descending ? 'descending' : 'ascending'}>
                  <button type="button" className="min-h-11" onClick={() => setDescending((d) => !d)}>
                    {mode === 'byName' ? <Trans>Authorization</Trans> : <Trans>User</Trans>} {descending ? '↓' : '↑'}
                  </button>
                </TableHead>
                <TableHead className="hidden sm:table-cell">{mode === 'byName' ? <Trans>Description</Trans> : <Trans>Authorizations</Trans>}</TableHead>
                <TableHead>
                  <span className="sr-only">{t`Actions`}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {mode === 'byName'
                ? pageOf(sortedNames, page, ROWS_PER_PAGE).map((authorization) => (
                    <Fragment key={authorization.uuid}>
                      <TableRow data-testid="authorization-row" data-name={authorization.name}>
                        <TableCell>
                          <Button variant="ghost" size="icon" aria-expanded={open.has(authorization.uuid)} aria-label={t`Show the users and rights of ${authorization.name}`} onClick={() => toggle(authorization.uuid)}>
                            {open.has(authorization.uuid) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                          </Button>
                        </TableCell>
                        <TableCell>
                          <span className="font-medium">{authorization.name}</span>
                          <span className="block text-sm text-muted-foreground sm:hidden">{authorization.description}</span>
                        </TableCell>
                        <TableCell className="hidden sm:table-cell">{authorization.description}</TableCell>
                        <TableCell className="whitespace-nowrap px-1 sm:px-3">
                          <Button variant="ghost" size="icon" aria-label={t`Details of ${authorization.name}`} onClick={() => setDetail(authorization)}>
                            <Eye aria-hidden />
                          </Button>
                          {roles.isAdministrator || roles.userManager ? (
                            <Button asChild variant="ghost" size="icon">
                              <Link
                                to={authorization.isPublic ? '/applications/$applicationName/authorizations/public/$authorizationId' : '/applications/$applicationName/authorizations/$authorizationId'}
                                params={{ applicationName: view.name, authorizationId: authorization.uuid }}
                                aria-label={t`Edit ${authorization.name}`}
                              >
                                <Pencil aria-hidden />
                              </Link>
                            </Button>
                          ) : null}
                          {roles.isAdministrator ? (
                            <Button variant="ghost" size="icon" aria-label={t`Revoke ${authorization.name}`} onClick={() => setRevoking(authorization)}>
                              <Trash2 aria-hidden />
                            </Button>
                          ) : null}
                        </TableCell>
                      </TableRow>
                      {open.has(authorization.uuid) ? (
                        <TableRow>
                          <TableCell />
                          <TableCell colSpan={3}>
                            <p className="mb-1 text-sm">
                              <span className="font-medium">{t`Users:`}</span> {authorization.isPublic ? t`everyone` : authorization.users.map((u) => u.login).join(', ')}
                            </p>
                            <PrivilegeSummary authorization={authorization} model={model} scopeLabels={scopeLabels} />
                          </TableCell>
                        </TableRow>
                      ) : null}
                    </Fragment>
                  ))
                : pageOf(users, page, ROWS_PER_PAGE).map(({ user, authorizations: held }) => (
                    <Fragment key={user.id}>
                      <TableRow data-testid="user-row" data-login={user.login}>
                        <TableCell>
                          <Button variant="ghost" size="icon" aria-expanded={open.has(user.id)} aria-label={t`Show the rights of ${user.login}`} onClick={() => toggle(user.id)}>
                            {open.has(user.id) ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                          </Button>
                        </TableCell>
                        <TableCell>
                          <span className="font-medium">{user.login}</span>
                          <span className="block text-sm text-muted-foreground sm:hidden">{held.map((a) => a.name).join(', ') || t`none`}</span>
                        </TableCell>
                        <TableCell className="hidden sm:table-cell">{held.map((a) => a.name).join(', ') || t`none`}</TableCell>
                        <TableCell />
                      </TableRow>
                      {open.has(user.id) ? (
                        <TableRow>
                          <TableCell />
                          <TableCell colSpan={3}>
                            <div className="grid gap-2">
                              {held.map((authorization) => (
                                <div key={authorization.uuid}>
                                  <p className="text-sm font-medium">{authorization.name}</p>
                                  <PrivilegeSummary authorization={authorization} model={model} scopeLabels={scopeLabels} />
                                </div>
                              ))}
                            </div>
                          </TableCell>
                        </TableRow>
                      ) : null}
                    </Fragment>
                  ))}
            </TableBody>
          </Table>
          {rows === 0 && authorizations ? (
            <p className="py-6 text-center text-muted-foreground">
              <Trans>Nothing to show.</Trans>
            </p>
          ) : null}
          {rows > ROWS_PER_PAGE ? (
            <Pager page={page} count={count} pages={pagerPages(page, count, 3)} onChange={setPage} labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }} />
          ) : null}
        </TabsContent>
      </Tabs>

      <Dialog open={detail !== null} onOpenChange={(value) => !value && setDetail(null)}>
        <DialogContent closeLabel={t`Close`} className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>{detail?.name}</DialogTitle>
            <DialogDescription>{detail?.description}</DialogDescription>
          </DialogHeader>
          {detail ? (
            <>
              <p>
                <span className="font-medium">{t`Users:`}</span> {detail.isPublic ? t`everyone` : detail.users.map((u) => `${u.login} (${u.email})`).join(', ')}
              </p>
              <PrivilegeSummary authorization={detail} model={model} scopeLabels={scopeLabels} />
            </>
          ) : null}
        </DialogContent>
      </Dialog>
      <Dialog open={revoking !== null} onOpenChange={(value) => !value && setRevoking(null)}>
        <DialogContent closeLabel={t`Close`}>
          <DialogHeader>
            <DialogTitle>
              <Trans>Revoke {revoking?.name}?</Trans>
            </DialogTitle>
            <DialogDescription>
              <Trans>Its users lose the rights it gives.</Trans>
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">
                <Trans>Cancel</Trans>
              </Button>
            </DialogClose>
            <Button variant="destructive" onClick={() => revoking && void revoke(revoking)}>
              <Trans>Revoke</Trans>
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
