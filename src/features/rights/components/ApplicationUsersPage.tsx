import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Save } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import { Breadcrumb } from '@/components/layout/Breadcrumb';
import { OfflineNotice } from '@/components/layout/OfflineNotice';
import { PageHeader } from '@/components/layout/PageHeader';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { translateServerError } from '@/lib/i18n/serverMessages';
import { pageOf } from '@/lib/paging';
import { ListPager } from '@/components/ListPager';
import { addressesShown } from '@/components/form/offeredUsers';
import { showToast } from '@/lib/toast';
import type { LoadedApplication } from '@/offline/useApplicationModel';
import { toastRefusal, toastSavedOnDevice } from '@/offline/changeToasts';
import { useOutboxSubmit } from '@/offline/useOutbox';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { applicationRoleChange, type ApplicationUser } from '../api';
import { applicationUsersRead } from '../queries';
import {
  noRoleChanges,
  pendingRoleCount,
  roleCalls,
  shownRole,
  toggleRole,
  type ApplicationRole,
  type RoleChanges,
} from '../roleChanges';

const USERS_PER_PAGE = 15;

/** Who manages the application and who manages its users: checkboxes per user, applied together on save. */
export function ApplicationUsersPage({ application }: { application: LoadedApplication }) {
  const submitChange = useOutboxSubmit();
  const { t, i18n } = useLingui();
  const { view } = application;
  const client = useQueryClient();
  const usersRead = applicationUsersRead(view.name);
  const { data, error, offlineSince } = useKeptQuery(usersRead.queryKey, usersRead.read);
  const users = data ?? null;
  const offlineFrom = application.offlineSince ?? offlineSince;
  const [changes, setChanges] = useState<RoleChanges>(noRoleChanges);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [saving, setSaving] = useState(false);

  // A user manager sees the table but only the application's managers change roles (the server says so too).
  const mayChange = users !== null && users.some((user) => user.applicationManager !== null);
  const pending = pendingRoleCount(changes);
  const text = search.trim().toLowerCase();
  const matching = (users ?? []).filter(
    (user) => user.login.toLowerCase().includes(text) || (user.email?.toLowerCase().includes(text) ?? false),
  );
  // Addresses come to platform administrators only (each user's own aside): no column of blanks for the others.
  const withAddresses = addressesShown(users ?? []);
  const appTitle = localized(view.title, i18n.locale, view.defaultLanguage, view.name);
  const roleLabel = (role: ApplicationRole) =>
    role === 'applicationManager' ? t`Application manager` : t`User manager`;

  async function save() {
    setSaving(true);
    let queued = false;
    for (const call of roleCalls(changes)) {
      const outcome = await submitChange(applicationRoleChange(view.name, call.role, call.login, call.grant));
      if (outcome.status === 'needs-attention') toastRefusal(i18n, outcome.error);
      queued ||= outcome.status === 'queued';
    }
    setChanges(noRoleChanges());
    if (queued) toastSavedOnDevice(i18n);
    else showToast('success', t`The roles have been saved.`);
    // The roles are read again from the server.
    await client.invalidateQueries({ queryKey: usersRead.queryKey });
    setSaving(false);
  }

  const roleBox = (user: ApplicationUser, role: ApplicationRole) => {
    const stored = role === 'applicationManager' ? user.applicationManager === true : user.userManager;
    return (
      <Checkbox
        checked={shownRole(changes, role, user.login, stored)}
        disabled={!mayChange}
        onCheckedChange={(checked) => setChanges((c) => toggleRole(c, role, user.login, stored, checked === true))}
        aria-label={t`${user.login} is ${roleLabel(role)}`}
        data-role={role}
      />
    );
  };

  return (
    <div className="grid gap-4">
      <Breadcrumb
        label={t`Breadcrumb`}
        crumbs={[
          { label: t`Applications`, href: '/applications' },
          { label: appTitle, href: `/applications/${view.name}` },
          { label: t`Managers` },
        ]}
      />
      <PageHeader
        title={<Trans>Managers of {appTitle}</Trans>}
        description={
          <Trans>
            Application managers administer the application and all its data; user managers give data rights to other
            users, within their own.
          </Trans>
        }
        actions={
          mayChange ? (
            <Button onClick={() => void save()} disabled={pending === 0 || saving}>
              <Save aria-hidden />
              <Trans>Save ({pending})</Trans>
            </Button>
          ) : null
        }
      />
      {offlineFrom ? <OfflineNotice fetchedAt={offlineFrom} /> : null}
      {error ? <Alert variant="destructive">{translateServerError(i18n, error)}</Alert> : null}
      <div className="max-w-md">
        <FormField label={t`Search`}>
          <Input
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </FormField>
      </div>
      <Table className="max-md:block">
        <TableHeader className="bg-muted max-md:sr-only">
          <TableRow>
            <TableHead>
              <Trans>Login</Trans>
            </TableHead>
            {withAddresses ? (
              <TableHead className="hidden md:table-cell">
                <Trans>E-mail</Trans>
              </TableHead>
            ) : null}
            <TableHead className="text-center">{roleLabel('applicationManager')}</TableHead>
            <TableHead className="text-center">{roleLabel('userManager')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="divide-y divide-border max-md:block">
          {pageOf(matching, page, USERS_PER_PAGE).map((user) => {
            const changed = [
              ...changes.applicationManager.add,
              ...changes.applicationManager.remove,
              ...changes.userManager.add,
              ...changes.userManager.remove,
            ].includes(user.login);
            return (
              <TableRow
                key={user.id}
                data-testid="role-row"
                data-login={user.login}
                className={cn('max-md:grid max-md:grid-cols-2 max-md:gap-1 max-md:py-2', changed && 'bg-accent/10')}
              >
                <TableCell className="font-medium max-md:col-span-2 max-md:break-all">{user.login}</TableCell>
                {withAddresses ? <TableCell className="hidden md:table-cell">{user.email}</TableCell> : null}
                {(['applicationManager', 'userManager'] as const).map((role) => (
                  <TableCell key={role} className="text-center max-md:flex max-md:items-center max-md:gap-3">
                    {role === 'applicationManager' && user.applicationManager === null ? (
                      <span className="text-muted-foreground">—</span>
                    ) : (
                      roleBox(user, role)
                    )}
                    <span className="text-sm text-muted-foreground md:hidden" aria-hidden>
                      {roleLabel(role)}
                    </span>
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ListPager total={matching.length} size={USERS_PER_PAGE} page={page} onChange={setPage} />
    </div>
  );
}
