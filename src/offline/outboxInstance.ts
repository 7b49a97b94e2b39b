import { reportServerReached, reportServerUnreachable } from '@/lib/connectivity';
import { createOutbox } from './outbox';
import { keepStorage } from './storage';

/**
 * The page's outbox; what its sends meet feeds the online/offline indicator, and a change kept on the device asks
 * the browser to keep the site's storage. The service worker makes its own over the same database; Web Locks keep
 * them apart.
 */
export const outbox = createOutbox({
  onReachability: (reachable) => (reachable ? reportServerReached() : reportServerUnreachable()),
  onQueued: () => void keepStorage(),
});
