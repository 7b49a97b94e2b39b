import { useEffect, useState } from 'react';
import { Outlet, createFileRoute, redirect, useRouter, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { MenuBar } from '@/components/layout/MenuBar';
import { ConnectionStatus } from '@/components/layout/ConnectionStatus';
import { InstallEntry } from '@/components/layout/InstallEntry';
import { IosInstallSteps } from '@/components/layout/IosInstallSteps';
import { PendingBadge } from '@/components/layout/PendingBadge';
import { SignOutDialog } from '@/components/layout/SignOutDialog';
import { outbox } from '@/offline/outboxInstance';
import { usePendingCount } from '@/offline/useOutbox';
import { startSyncTriggers } from '@/offline/syncTriggers';
import { startKeptTablesRefresh } from '@/offline/keptTablesRefresh';
import { refreshAffectedReads, startAppliedChangesRefresh } from '@/offline/appliedChangesRefresh';
import { startPublicationFollowing } from '@/offline/publicationJobs';
import { toastJobOutcome } from '@/offline/changeToasts';
import { readPublicationState } from '@/lib/api/publicationState';
import { i18n } from '@/lib/i18n/setup';
import { forgetReadsInMemory, queryClient, refetchFailedReads } from '@/offline/queryCache';
import { offlineDb } from '@/offline/db';
import { downloadReferenceRows } from '@/lib/api/referenceRows';
import { LanguageSwitcher } from '@/components/layout/LanguageSwitcher';
import { fetchMe, signOut } from '@/features/auth/api';
import { onSessionLost } from '@/lib/api/client';
import { onServerBackInReach, startReachabilityProbe } from '@/lib/connectivity';
import { ApiError } from '@/lib/api/apiError';
import { getCurrentUser, setCurrentUser, useCurrentUser } from '@/offline/currentUser';

/** The application a path belongs to, so that signing in again leads back to it. */
function applicationOf(pathname: string): string | undefined {
  const match = pathname.match(/^\/applications\/([^/]+)/);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** Where to sign in again; `expiredLogin`, whose session expired, is asked again (and shown their waiting changes). */
function loginLocation(pathname: string, expiredLogin?: string) {
  const applicationName = applicationOf(pathname);
  const search = { loggedOut: true, ...(expiredLogin ? { login: expiredLogin } : {}) };
  return applicationName
    ? ({ to: '/login/$applicationName', params: { applicationName }, search } as const)
    : ({ to: '/login', search } as const);
}

function SignedInLayout() {
  const { t } = useLingui();
  const user = useCurrentUser();
  const router = useRouter();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const waiting = usePendingCount(user?.login);
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
  const [showingInstallSteps, setShowingInstallSteps] = useState(false);

  useEffect(() => {
    const leave = () => {
      const expiredLogin = getCurrentUser()?.login;
      // One lost session is often told twice (the failed call and the session listener): the first one leaves.
      if (expiredLogin === undefined) return;
      setCurrentUser(null);
      void router.navigate(loginLocation(router.state.location.pathname, expiredLogin));
    };
    const stop = onSessionLost(leave);
    const stopSync = startSyncTriggers(outbox);
    const stopAppliedRefresh = startAppliedChangesRefresh(offlineDb, queryClient);
    const stopBackInReach = onServerBackInReach(refetchFailedReads);
    const stopKeptRefresh = startKeptTablesRefresh(offlineDb, queryClient, (application, reference) =>
      downloadReferenceRows(application, reference),
    );
    // Refresh the remembered user (roles may have changed); offline, the remembered copy is kept. Again when the
    // network comes back, and now and then while the server is out of reach: the answer also tells the online/offline
    // indicator, even when the service worker, not this page, sends the pending changes (the first ask on "online"
    // can still meet the worker's network cut).
    const refresh = () =>
      void fetchMe()
        .then(setCurrentUser)
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 401) leave();
        });
    refresh();
    window.addEventListener('online', refresh);
    const stopProbe = startReachabilityProbe(refresh);
    return () => {
      stop();
      stopSync();
      stopKeptRefresh();
      stopAppliedRefresh();
      stopBackInReach();
      stopProbe();
      window.removeEventListener('online', refresh);
    };
  }, [router]);
  // Leaving (signing out, a lost session) or another person signing in: what was read leaves memory.
  const login = user?.login;
  useEffect(() => () => forgetReadsInMemory(), [login]);
  // Followed again for each person who signs in: each follows the publications they made.
  useEffect(
    () =>
      startPublicationFollowing(offlineDb, {
        readState: readPublicationState,
        signedIn: () => getCurrentUser()?.login,
        onEnd: (item, job, outcome) => {
          toastJobOutcome(i18n, item, job, outcome);
          // The job changed the version and the data since the change was applied.
          refreshAffectedReads(queryClient, item);
        },
      }),
    [login],
  );

  if (!user) return null;
  const applicationName = applicationOf(pathname);

  async function logout() {
    setConfirmingSignOut(false);
    try {
      await signOut();
    } catch {
      // Offline: the cookie stays until it expires, but this device forgets the user now.
    }
    setCurrentUser(null);
    await router.navigate({ to: '/login', search: { loggedOut: true } });
  }

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-card focus:p-3"
      >
        {t`Skip to content`}
      </a>
      <MenuBar
        user={user}
        currentApplication={
          applicationName
            ? { name: applicationName, href: `/applications/${encodeURIComponent(applicationName)}` }
            : undefined
        }
        adminEntries={[{ label: t`Authorizations`, href: '/authorizationsManagementForApplicationCreator' }]}
        languageSelect={<LanguageSwitcher />}
        status={
          <>
            <ConnectionStatus />
            <PendingBadge />
          </>
        }
        menuEntries={<InstallEntry onShowIosSteps={() => setShowingInstallSteps(true)} />}
        onLogout={() => (waiting > 0 ? setConfirmingSignOut(true) : void logout())}
      />
      <SignOutDialog
        waiting={waiting}
        open={confirmingSignOut}
        onCancel={() => setConfirmingSignOut(false)}
        onConfirm={() => void logout()}
      />
      <IosInstallSteps open={showingInstallSteps} onOpenChange={setShowingInstallSteps} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}

export const Route = createFileRoute('/_signedIn')({
  beforeLoad: ({ location }) => {
    if (!getCurrentUser()) throw redirect(loginLocation(location.pathname));
  },
  component: SignedInLayout,
});
