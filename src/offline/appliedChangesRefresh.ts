import { liveQuery } from 'dexie';
import type { QueryClient } from '@tanstack/react-query';
import type { TerrainDatabase } from './db';
import type { OutboxItem } from './outboxTypes';

/**
 * The reads a change can alter: everything of its application (`summary.name`) and the application list; a change
 * about a user (roles, charter) may alter any screen.
 */
export function affectedReads(item: Pick<OutboxItem, 'summary' | 'resource'>): Array<readonly unknown[]> | 'all' {
  const application = item.summary.name;
  if (item.resource.startsWith('user:') || application === undefined) return 'all';
  return [['application', application], ['applications']];
}

/** Marks stale the reads `item` alters: the screen showing them reads them again, the others when next opened. */
export function refreshAffectedReads(client: QueryClient, item: Pick<OutboxItem, 'summary' | 'resource'>): void {
  const reads = affectedReads(item);
  if (reads === 'all') void client.invalidateQueries();
  else for (const queryKey of reads) void client.invalidateQueries({ queryKey });
}

/**
 * Marks stale the reads a change applied by the server alters, whoever sent it (this page or the service worker):
 * the screen showing them reads them again, and the others do when next opened.
 */
export function startAppliedChangesRefresh(db: TerrainDatabase, client: QueryClient, since = Date.now()): () => void {
  const handled = new Set<number>();
  const applied = liveQuery(() => db.outbox.where('status').equals('done').toArray()).subscribe({
    next: (items) => {
      for (const item of items) {
        // What was applied before this page started was read after it, by the screens themselves.
        if (handled.has(item.id!) || (item.doneAt ?? 0) < since) continue;
        handled.add(item.id!);
        refreshAffectedReads(client, item);
      }
    },
    // A query of the device's own database failing leaves the reads as they are; the next screen opened asks anew.
    error: () => undefined,
  });
  return () => applied.unsubscribe();
}
