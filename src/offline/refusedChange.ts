import { offlineDb } from './db';
import type { OutboxItem } from './outboxTypes';

/**
 * The change a form reopened with `?outboxItem=` edits: only one still refused. The address outlives it: once it was
 * retried, or replaced by its correction (which keeps its id), opening the address again shows the blank form
 * rather than a change that is on its way or applied.
 */
export async function refusedChange(id: number): Promise<OutboxItem | undefined> {
  const item = await offlineDb.outbox.get(id);
  return item?.status === 'needs-attention' ? item : undefined;
}
