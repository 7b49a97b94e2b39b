import type { OutboxItem } from '@/offline/outboxTypes';

/**
 * The charter versions (upload times) of an application whose acceptance is in the outbox, waiting or sent: the
 * device counts them as accepted until a fresh answer of the server says so itself. Refused ones do not count.
 */
export function acceptancesInOutbox(items: readonly OutboxItem[], applicationId: string): string[] {
  return items
    .filter(
      (item) =>
        item.kind === 'charter.accept' &&
        item.summary.applicationId === applicationId &&
        item.status !== 'needs-attention',
    )
    .map((item) => item.summary.charterUploadedAt);
}
