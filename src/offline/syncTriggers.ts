import { onServerBackInReach } from '@/lib/connectivity';
import type { Outbox } from './outbox';

const SYNC_TAG = 'terrain-outbox';

interface SyncManager {
  register(tag: string): Promise<void>;
}

/** Asks the service worker to send the outbox when the network returns, even if the page is closed by then. */
async function requestBackgroundSync() {
  if (!('serviceWorker' in navigator)) return;
  const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: SyncManager };
  await registration.sync?.register(SYNC_TAG).catch(() => undefined);
}

/**
 * Sends the outbox at start, when the page becomes visible again and when a queued change is due after its backoff;
 * at once, lifting the hold on sends, when the browser comes back online or the server answers any call after being
 * out of reach. Asks for a background sync while changes wait (browsers without it, Safari and Firefox, rely on the
 * page-side triggers).
 */
export function startSyncTriggers(outbox: Outbox): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => void outbox.process().then(schedule, schedule);
  const resume = () => void outbox.resume().then(schedule, schedule);

  async function schedule() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const due = await outbox.nextDueAt();
    if (due === undefined) return;
    void requestBackgroundSync();
    timer = setTimeout(run, Math.max(1000, due - Date.now()));
  }

  const onVisible = () => document.visibilityState === 'visible' && run();
  window.addEventListener('online', resume);
  document.addEventListener('visibilitychange', onVisible);
  const stopListening = outbox.onChange(() => void schedule());
  const stopWatchingServer = onServerBackInReach(resume);
  run();
  return () => {
    window.removeEventListener('online', resume);
    document.removeEventListener('visibilitychange', onVisible);
    stopListening();
    stopWatchingServer();
    if (timer) clearTimeout(timer);
  };
}
