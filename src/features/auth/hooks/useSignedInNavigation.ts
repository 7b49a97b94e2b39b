import { useRouter } from '@tanstack/react-router';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import { setCurrentUser } from '@/offline/currentUser';
import { outbox } from '@/offline/outboxInstance';

/** Remembers the user and goes where sign-in should lead: the requested application, or the list. */
export function useSignedInNavigation(applicationName?: string) {
  const router = useRouter();
  return (user: AuthenticatedUser) => {
    setCurrentUser(user);
    // The changes that waited for this session go now, not when the hold a lost session put on sends runs out.
    void outbox.resume();
    const href = applicationName ? `/applications/${encodeURIComponent(applicationName)}` : '/applications';
    void router.navigate({ href, replace: true });
  };
}
