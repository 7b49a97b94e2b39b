import { useQueryClient } from '@tanstack/react-query';
import type { AuthorizationList } from '@/contract/authorizations';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { authorizationsRead, grantableRead } from '../queries';

const NO_ROLES = { isAdministrator: false, userManager: false };

/**
 * The authorizations of an application, what may be granted in it (users, scopes), and the caller's roles there;
 * seen once, they open offline with when they were fetched.
 */
export function useAuthorizations(applicationName: string) {
  const client = useQueryClient();
  const list = authorizationsRead(applicationName);
  const authorizations = useKeptQuery(list.queryKey, list.read);
  const grantable = useGrantableQuery(applicationName);

  /** Takes a revoked authorization off the list without waiting for the server's. */
  const forget = (uuid: string) =>
    client.setQueryData<AuthorizationList>(
      list.queryKey,
      (kept) => kept && { ...kept, authorizationResults: kept.authorizationResults.filter((a) => a.uuid !== uuid) },
    );

  const offline = [authorizations.offlineSince, grantable.offlineSince].filter((since) => since !== undefined);
  return {
    authorizations: authorizations.data?.authorizationResults ?? null,
    grantable: grantable.data ?? null,
    roles: authorizations.data?.authorizationsForUser ?? NO_ROLES,
    error: authorizations.error ?? grantable.error,
    offlineSince: offline.length ? Math.min(...offline) : undefined,
    forget,
  };
}

/** What may be granted in an application (users, scopes) and what the caller may give. */
export function useGrantableQuery(applicationName: string) {
  const options = grantableRead(applicationName);
  return useKeptQuery(options.queryKey, options.read);
}
