import { msg } from '@lingui/core/macro';
import { reportSessionLost } from '@/lib/api/client';
import { reportServerReached, reportServerUnreachable } from '@/lib/connectivity';
import { i18n } from '@/lib/i18n/setup';
import { showToast } from '@/lib/toast';
import { createOutbox, serverAnswersAt } from './outbox';
import { isNearlyFull, keepStorage, storageState } from './storage';

const nearlyFull = msg`This device is nearly full`;
const nearlyFullAdvice = msg`Send the waiting changes, or save them to a file from the pending changes page, before it refuses new ones.`;

/** A change was kept on the device: ask the browser to keep the site's storage, and warn while room runs out. */
async function onQueued() {
  await keepStorage();
  if (isNearlyFull(await storageState())) showToast('warning', i18n._(nearlyFull), i18n._(nearlyFullAdvice));
}

/**
 * The page's outbox; what its sends meet feeds the online/offline indicator. The service worker makes its own over
 * the same database; Web Locks keep them apart.
 */
export const outbox = createOutbox({
  onReachability: (reachable) => (reachable ? reportServerReached() : reportServerUnreachable()),
  // A change sent in the background can be the first to meet an expired session: the page must hear of it too.
  onSignedOut: reportSessionLost,
  onQueued: () => void onQueued(),
  serverAnswers: serverAnswersAt(),
});
