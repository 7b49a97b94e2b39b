import { useLiveQuery } from 'dexie-react-hooks';
import { offlineDb } from './db';
import type { OutboxItem } from './outboxTypes';

/** The outbox as it changes: every item, and how many are not yet applied. */
export function useOutboxItems(): OutboxItem[] | undefined {
  return useLiveQuery(() => offlineDb.outbox.orderBy('id').toArray(), []);
}

export function usePendingCount(): number {
  return (
    useLiveQuery(() => offlineDb.outbox.where('status').anyOf('queued', 'sending', 'needs-attention').count(), []) ?? 0
  );
}
