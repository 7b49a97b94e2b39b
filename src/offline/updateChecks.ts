/** How often a page left open asks whether a new version of Terrain was deployed. */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

interface UpdateCheckOptions {
  /** Where `online` is heard (the window, in the browser). */
  network: EventTarget;
  /** Where `visibilitychange` is heard (the document). */
  page: EventTarget;
  isOnline: () => boolean;
  isVisible: () => boolean;
  everyMs?: number;
}

/**
 * Asks the service worker's registration to look for a new version every hour, when the network comes back and
 * when the page is shown again: a tablet's page left open for days otherwise went on with the old code against a
 * new server, never offered the new version. Answers the function that stops asking.
 */
export function checkForUpdates(
  registration: { update(): Promise<unknown> },
  { network, page, isOnline, isVisible, everyMs = UPDATE_CHECK_MS }: UpdateCheckOptions,
): () => void {
  const check = () => {
    // Offline, or failing: the next occasion asks again.
    if (isOnline()) registration.update().catch(() => undefined);
  };
  const onVisible = () => {
    if (isVisible()) check();
  };
  const timer = setInterval(check, everyMs);
  network.addEventListener('online', check);
  page.addEventListener('visibilitychange', onVisible);
  return () => {
    clearInterval(timer);
    network.removeEventListener('online', check);
    page.removeEventListener('visibilitychange', onVisible);
  };
}
