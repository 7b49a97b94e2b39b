import { useEffect, useState } from 'react';
import { fetchAuthorizations, fetchGrantable, type AuthorizationView, type Grantable } from '../api';

/** The authorizations of an application, what may be granted in it (users, scopes), and the caller's roles there. */
export function useAuthorizations(applicationName: string) {
  const [authorizations, setAuthorizations] = useState<AuthorizationView[] | null>(null);
  const [grantable, setGrantable] = useState<Grantable | null>(null);
  const [roles, setRoles] = useState({ isAdministrator: false, userManager: false });
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    Promise.all([fetchAuthorizations(applicationName), fetchGrantable(applicationName)])
      .then(([list, options]) => {
        setAuthorizations(list.authorizationResults);
        setRoles(list.authorizationsForUser);
        setGrantable(options);
      })
      .catch(setError);
  }, [applicationName]);

  /** Takes a revoked authorization off the list without waiting for the server's. */
  const forget = (uuid: string) => setAuthorizations((list) => list?.filter((a) => a.uuid !== uuid) ?? null);

  return { authorizations, grantable, roles, error, forget };
}
