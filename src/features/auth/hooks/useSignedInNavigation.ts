import { useRouter } from '@tanstack/react-router';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import { setCurrentUser } from '@/offline/currentUser';

/** Remembers the user and goes where sign-in should lead: the requested application, or the list. */
export function useSignedInNavigation(applicationName?: string) {
  const router = useRouter();
  return (user: AuthenticatedUser) => {
    setCurrentUser(user);
    const href = applicationName ? `/applications/${encodeURIComponent(applicationName)}` : '/applications';
    void router.navigate({ href, replace: true });
  };
}
