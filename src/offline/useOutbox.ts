import { useLiveQuery } from 'dexie-react-hooks';
import { offlineDb } from './db';
import type { OutboxItem } from './outboxTypes';

/** The outbox as it changes: every item, and how many are not yet applied. */
export function useOutboxItems(): OutboxItem[] | undefined {
  return useLiveQuery(() => offlineDb.outbox.orderBy('id').toArray(), []);
}

/** Changes not yet applied: all of them, or those `owner` made. */
export function usePendingCount(owner?: string): number {
  return (
    useLiveQuery(() => {
      const waiting = offlineDb.outbox.where('status').anyOf('queued', 'sending', 'needs-attention');
      return owner === undefined ? waiting.count() : waiting.filter((item) => item.owner === owner).count();
    }, [owner]) ?? 0
  );
}

/** The changes `owner` made that are not applied yet, oldest first. */
export function useWaitingChangesOf(owner: string): OutboxItem[] | undefined {
  return useLiveQuery(
    () =>
      offlineDb.outbox
        .where('status')
        .anyOf('queued', 'sending', 'needs-attention')
        .filter((item) => item.owner === owner)
        .sortBy('id'),
    [owner],
  );
}
