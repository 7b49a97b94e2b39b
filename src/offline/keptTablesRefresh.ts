import { liveQuery } from 'dexie';
import type { QueryClient } from '@tanstack/react-query';
import type { ApplicationView } from '@/domain/applications/applicationView';
import type { DownloadedReference } from '@/lib/api/referenceRows';
import type { TerrainDatabase } from './db';

/**
 * Keeps the device's copies of references up to date, so the next file checked offline against them is not refused
 * for values the server now has:
 * - once the server has applied an upload or deletion this device sent into a kept table, it is downloaded again;
 * - each time an application is read from the server, a kept table whose write version moved since it was
 *   downloaded (someone else's change) is downloaded again.
 */
export function startKeptTablesRefresh(
  db: TerrainDatabase,
  client: QueryClient,
  download: (application: string, reference: string) => Promise<DownloadedReference>,
): () => void {
  const refreshing = new Set<string>();
  async function refresh(
    application: string,
    reference: string,
    outdated: (kept: { fetchedAt: number; version?: number }) => boolean,
  ) {
    const key = `${application}/${reference}`;
    if (refreshing.has(key)) return;
    const kept = await db.referenceRows.get(key);
    if (!kept || !outdated(kept)) return;
    refreshing.add(key);
    try {
      const fetchedAt = Date.now();
      const { rows, version, part } = await download(application, reference);
      await db.referenceRows.put({ key, rows, version, part, fetchedAt });
    } catch {
      // Out of reach again: the copy stays as it was, and the next applied change or read of the application retries.
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
      for (const item of items)
        void refresh(item.summary.name, item.summary.reference, (kept) => kept.fetchedAt < (item.doneAt ?? 0));
    },
    // A query of the device's own database failing leaves the copies as they are; nothing is lost by it.
    error: () => undefined,
  });

  const stopReads = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [root, application, part] = event.query.queryKey as unknown[];
    if (root !== 'application' || part !== 'view' || typeof application !== 'string') return;
    const versions = (event.query.state.data as ApplicationView | undefined)?.entryVersions ?? {};
    for (const [reference, version] of Object.entries(versions))
      // A copy kept before versions were recorded is downloaded once to learn its version.
      void refresh(application, reference, (kept) => kept.version === undefined || kept.version < version);
  });

  return () => {
    applied.unsubscribe();
    stopReads();
  };
}
