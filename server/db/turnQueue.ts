/** Work waiting for its turn, first come first served: whoever ends a turn calls the first one (after removing it). */
export type TurnQueue = Array<() => void>;

/**
 * Waits in `queue` until called. When `giveUp` is aborted first (the work failed meanwhile, its client left), leaves
 * the queue at once and rejects with the signal's reason: it would otherwise keep its place, and whatever it holds,
 * until its turn came only to be handed on.
 */
export function waitForTurn(queue: TurnQueue, giveUp?: AbortSignal): Promise<void> {
  if (giveUp?.aborted) return Promise.reject(giveUp.reason);
  return new Promise((resolve, reject) => {
    const leave = () => {
      queue.splice(queue.indexOf(turn), 1);
      reject(giveUp!.reason);
    };
    const turn = () => {
      giveUp?.removeEventListener('abort', leave);
      resolve();
    };
    giveUp?.addEventListener('abort', leave, { once: true });
    queue.push(turn);
  });
}
