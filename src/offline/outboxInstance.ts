import { reportServerReached, reportServerUnreachable } from '@/lib/connectivity';
import { createOutbox } from './outbox';

/**
 * The page's outbox; what its sends meet feeds the online/offline indicator. The service worker makes its own
 * over the same database; Web Locks keep them apart.
 */
export const outbox = createOutbox({
  onReachability: (reachable) => (reachable ? reportServerReached() : reportServerUnreachable()),
});
