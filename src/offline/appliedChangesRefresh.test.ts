import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { TerrainDatabase } from './db';
import { startAppliedChangesRefresh } from './appliedChangesRefresh';
import type { OutboxItem } from './outboxTypes';

const change = (application: string, status: OutboxItem['status']): OutboxItem => ({
  idempotencyKey: globalThis.crypto.randomUUID(),
  kind: 'reference.upload',
  summary: { name: application, reference: 'sites', entry: 'reference', fileName: 'sites.csv' },
  resource: `reference:${application}/sites`,
  request: {
    method: 'POST',
    path: `/applications/${application}/references/sites`,
    headers: {},
    body: { type: 'none' },
  },
  streamed: false,
  createdAt: 1,
  attempts: 0,
  nextAttemptAt: 0,
  status,
  size: 0,
});

/** Resolves once `check` holds, looking again each time the client's cache changes. */
const cacheSettles = (client: QueryClient, check: () => boolean) =>
  new Promise<void>((resolve) => {
    if (check()) return resolve();
    const stop = client.getQueryCache().subscribe(() => {
      if (check()) {
        stop();
        resolve();
      }
    });
  });

describe('reads after an applied change', () => {
  it("are marked stale for the change's application and the list, and only for a change applied while the page is open", async () => {
    const db = new TerrainDatabase('applied-refresh');
    const client = new QueryClient();
    await db.outbox.add({ ...change('other', 'done'), doneAt: 1_000 });
    const waiting = await db.outbox.add(change('monsore', 'queued'));
    for (const key of [['application', 'monsore', 'rows', 'sites'], ['application', 'other', 'view'], ['applications']])
      client.setQueryData(key, { read: true });
    const stale = (key: unknown[]) => client.getQueryState(key)?.isInvalidated === true;

    const stop = startAppliedChangesRefresh(db, client, 2_000);
    // A change applied before the page started, and one to an application not read, leave the reads alone.
    await db.outbox.add({ ...change('elsewhere', 'done'), doneAt: 3_000 });
    await db.outbox.update(waiting, { status: 'done', doneAt: 3_000 });
    await cacheSettles(client, () => stale(['application', 'monsore', 'rows', 'sites']));
    expect(stale(['applications'])).toBe(true);
    expect(stale(['application', 'other', 'view'])).toBe(false);
    stop();
    db.close();
  });
});
