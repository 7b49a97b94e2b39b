/** The search of a form reopened from the pending changes: `?outboxItem=<id>` names the queued change it replaces. */
export interface OutboxItemSearch {
  outboxItem?: number;
}

/**
 * Reads `outboxItem` from a page's search: a positive whole number (the outbox's ids), or nothing. A hand-edited
 * address (`?outboxItem=`, `?outboxItem=abc`, `?outboxItem=1.5`) opens the blank form instead of a missing change.
 */
export function outboxItemSearch(search: Record<string, unknown>): OutboxItemSearch {
  const value = search.outboxItem;
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? { outboxItem: id } : {};
}
