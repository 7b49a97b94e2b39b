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

/**
 * Marks stale the reads a change applied by the server alters, whoever sent it (this page or the service worker):
 * the screen showing them reads them again, and the others do when next opened.
 */
export function startAppliedChangesRefresh(db: TerrainDatabase, client: QueryClient): () => void {
  let seen: Set<number> | undefined;
  const applied = liveQuery(() => db.outbox.where('status').equals('done').toArray()).subscribe({
    next: (items) => {
      const known = seen;
      seen = new Set(items.map((item) => item.id!));
      // What was applied before this page opened was read after it, by the screens themselves.
      if (!known) return;
      for (const item of items) {
        if (known.has(item.id!)) continue;
        const reads = affectedReads(item);
        if (reads === 'all') void client.invalidateQueries();
        else for (const queryKey of reads) void client.invalidateQueries({ queryKey });
      }
    },
    // A query of the device's own database failing leaves the reads as they are; the next screen opened asks anew.
    error: () => undefined,
  });
  return () => applied.unsubscribe();
}
