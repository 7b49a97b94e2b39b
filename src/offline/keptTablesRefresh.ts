import { liveQuery } from 'dexie';
import type { KeptRow } from '@/domain/rows/filterRows';
import type { TerrainDatabase } from './db';

/**
 * Keeps the device's copy of a reference up to date with what the device itself sent: once the server has applied an
 * upload into a table the device keeps, the copy is downloaded again. Otherwise the copy still lacks the rows just
 * loaded, and the next file checked offline against it is refused for values the server now has.
 */
export function startKeptTablesRefresh(
  db: TerrainDatabase,
  download: (application: string, reference: string) => Promise<KeptRow[]>,
): () => void {
  const refreshing = new Set<string>();
  async function refresh(application: string, reference: string, appliedAt: number) {
    const key = `${application}/${reference}`;
    if (refreshing.has(key)) return;
    const kept = await db.referenceRows.get(key);
    if (!kept || kept.fetchedAt >= appliedAt) return;
    refreshing.add(key);
    try {
      const fetchedAt = Date.now();
      await db.referenceRows.put({ key, rows: await download(application, reference), fetchedAt });
    } catch {
      // Out of reach again: the copy stays as it was, and the next applied change or online check refreshes it.
    } finally {
      refreshing.delete(key);
    }
  }
  const applied = liveQuery(() =>
    db.outbox
      .where('status')
      .equals('done')
      .filter((item) => item.kind === 'reference.upload' || item.kind === 'reference.delete')
      .toArray(),
  ).subscribe({
    next: (items) => {
      for (const item of items) void refresh(item.summary.name, item.summary.reference, item.doneAt ?? 0);
    },
    // A query of the device's own database failing leaves the copies as they are; nothing is lost by it.
    error: () => undefined,
  });
  return () => applied.unsubscribe();
}
