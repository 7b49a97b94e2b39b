import { useEffect, useRef } from 'react';
import type { OutboxItem } from './outboxTypes';

/**
 * Calls `refresh` when the server has applied one more of the changes `concerns` picks: a change the outbox sent
 * later (made offline) then shows in what the page read before. `items` is the outbox as it changes; while it is
 * still being read, nothing is counted.
 */
export function useRefreshWhenApplied(
  items: readonly OutboxItem[] | undefined,
  concerns: (item: OutboxItem) => boolean,
  refresh: () => unknown,
): void {
  const applied = items ? items.filter((item) => item.status === 'done' && concerns(item)).length : null;
  const appliedBefore = useRef<number | null>(null);
  useEffect(() => {
    if (applied === null) return;
    if (appliedBefore.current !== null && applied > appliedBefore.current) void refresh();
    appliedBefore.current = applied;
  }, [applied, refresh]);
}
