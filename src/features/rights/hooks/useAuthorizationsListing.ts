import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { pageCount, pageOf } from '@/lib/paging';
import type { AuthorizationView, Grantable } from '../api';

export const AUTHORIZATIONS_PER_PAGE = 30;
export type ListingMode = 'byName' | 'byUser';
export type UserFilter = 'allUsers' | 'userWithAuth' | 'userWithoutAuth';

/**
 * How the authorizations are listed: by name (public ones apart) or by user (with or without one), searched,
 * sorted either way and paged; a change of mode, of the public box or of the search goes back to the first page.
 */
export function useAuthorizationsListing(authorizations: AuthorizationView[] | null, grantable: Grantable | null) {
  const { i18n } = useLingui();
  const [mode, setMode] = useState<ListingMode>('byName');
  const [showPublic, setShowPublic] = useState(false);
  const [userFilter, setUserFilter] = useState<UserFilter>('allUsers');
  const [search, setSearch] = useState('');
  const [descending, setDescending] = useState(false);
  const [page, setPage] = useState(1);

  const hasPublic = (authorizations ?? []).some((a) => a.isPublic);
  const named = (authorizations ?? []).filter(
    (a) => a.isPublic === showPublic && a.name.toLowerCase().includes(search.trim().toLowerCase()),
  );
  // Same names in one order whatever the order read, so that a page shows the same authorizations after a reload.
  const sortedNames = [...named].sort(
    (a, b) =>
      (descending ? -1 : 1) *
      (a.name.localeCompare(b.name, i18n.locale) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0)),
  );
  const users = useMemo(() => {
    const list = (grantable?.users ?? []).filter(
      (u) => u.id !== '_public_' && u.login.toLowerCase().includes(search.trim().toLowerCase()),
    );
    // Each user's authorizations, indexed once: searched per user, the work grew as users times authorizations
    // (12 million tests for 6,000 users and 2,000 authorizations) at every key typed.
    const byUser = new Map<string, AuthorizationView[]>();
    for (const authorization of authorizations ?? [])
      for (const { id } of authorization.users) {
        const held = byUser.get(id);
        if (held) held.push(authorization);
        else byUser.set(id, [authorization]);
      }
    const of = (id: string) => byUser.get(id) ?? [];
    return list
      .map((user) => ({ user, authorizations: of(user.id) }))
      .filter((entry) =>
        userFilter === 'allUsers'
          ? true
          : userFilter === 'userWithAuth'
            ? entry.authorizations.length > 0
            : entry.authorizations.length === 0,
      )
      .sort((a, b) => (descending ? -1 : 1) * a.user.login.localeCompare(b.user.login, i18n.locale));
  }, [grantable, authorizations, search, userFilter, descending, i18n.locale]);

  const rows = mode === 'byName' ? sortedNames.length : users.length;
  const chooseMode = (next: ListingMode) => {
    setMode(next);
    setPage(1);
  };
  const chooseShowPublic = (next: boolean) => {
    setShowPublic(next);
    setPage(1);
  };
  const chooseSearch = (next: string) => {
    setSearch(next);
    setPage(1);
  };

  return {
    mode,
    chooseMode,
    showPublic,
    chooseShowPublic,
    hasPublic,
    userFilter,
    setUserFilter,
    search,
    chooseSearch,
    descending,
    toggleOrder: () => setDescending((d) => !d),
    page,
    setPage,
    rows,
    pageCount: pageCount(rows, AUTHORIZATIONS_PER_PAGE),
    namesOfPage: pageOf(sortedNames, page, AUTHORIZATIONS_PER_PAGE),
    usersOfPage: pageOf(users, page, AUTHORIZATIONS_PER_PAGE),
  };
}

export type AuthorizationsListing = ReturnType<typeof useAuthorizationsListing>;
