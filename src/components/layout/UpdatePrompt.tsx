import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { RefreshCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { outbox } from '@/offline/outboxInstance';
import { checkForUpdates } from '@/offline/updateChecks';

/** Registers the service worker and, when a new version is waiting, offers to reload into it. */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    onRegisteredSW: (_url, registration) => {
      // Asked for the page's whole life: one registration per page.
      if (registration)
        checkForUpdates(registration, {
          network: window,
          page: document,
          isOnline: () => navigator.onLine,
          isVisible: () => document.visibilityState === 'visible',
        });
    },
  });
  const [waiting, setWaiting] = useState(false);
  if (!needRefresh) return null;
  // A send under way finishes first: reloaded in its middle, it was sent again (and the page could not say whether
  // the server had applied it).
  const reload = () => {
    setWaiting(true);
    void outbox.betweenSends(() => updateServiceWorker(true));
  };
  return (
    <div
      role="status"
      className="fixed inset-x-2 bottom-2 z-50 mx-auto flex max-w-md items-center gap-3 rounded-lg border-2 border-accent bg-card p-3 shadow-xl"
    >
      <RefreshCw className="size-5 shrink-0 text-primary" aria-hidden />
      <p className="flex-1">
        {waiting ? (
          <Trans>Reloading once the change being sent has gone…</Trans>
        ) : (
          <Trans>A new version of Terrain is available.</Trans>
        )}
      </p>
      <Button onClick={reload} disabled={waiting}>
        <Trans>Reload</Trans>
      </Button>
    </div>
  );
}
