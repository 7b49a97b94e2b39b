import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { KeptRow } from '@/domain/rows/filterRows';
import { TerrainDatabase } from './db';
import { startKeptTablesRefresh } from './keptTablesRefresh';
import type { OutboxItem } from './outboxTypes';

let databases = 0;
const row = (naturalKey: string) => ({ naturalKey }) as unknown as KeptRow;

const appliedUpload = (reference: string, doneAt: number): OutboxItem => ({
  idempotencyKey: `${reference}-${doneAt}`,
  kind: 'reference.upload',
  summary: { name: 'monsore', reference, entry: 'reference', fileName: `${reference}.csv` },
  resource: `reference:monsore/${reference}`,
  request: {
    method: 'POST',
    path: `/applications/monsore/references/${reference}`,
    headers: {},
    body: { type: 'none' },
  },
  streamed: false,
  createdAt: doneAt - 10,
  attempts: 1,
  nextAttemptAt: 0,
  status: 'done',
  size: 0,
  doneAt,
});

describe('kept tables', () => {
  it('are downloaded again once an upload into them is applied, and only those the device keeps and has not fetched since', async () => {
    const db = new TerrainDatabase(`kept-refresh-${++databases}`);
    await db.referenceRows.bulkPut([
      { key: 'monsore/sites', rows: [row('s1')], fetchedAt: 1_000 },
      { key: 'monsore/species', rows: [row('e1')], fetchedAt: 9_000 },
    ]);
    const asked: string[] = [];
    const stop = startKeptTablesRefresh(db, new QueryClient(), async (application, reference) => {
      asked.push(`${application}/${reference}`);
      return { rows: [row('s1'), row('s2')], version: 3 };
    });
    await db.outbox.bulkAdd([
      appliedUpload('sites', 5_000),
      appliedUpload('species', 5_000),
      appliedUpload('projects', 5_000),
    ]);
    await expect.poll(async () => (await db.referenceRows.get('monsore/sites'))?.rows.length).toBe(2);
    stop();
    expect(asked).toEqual(['monsore/sites']);
    expect((await db.referenceRows.get('monsore/species'))?.rows).toHaveLength(1);
    expect(await db.referenceRows.get('monsore/projects')).toBeUndefined();
  });

  it("are downloaded again when an application read from the server says someone else's write moved them", async () => {
    const db = new TerrainDatabase(`kept-refresh-${++databases}`);
    await db.referenceRows.bulkPut([
      { key: 'monsore/sites', rows: [row('s1')], version: 4, fetchedAt: 1_000 },
      { key: 'monsore/species', rows: [row('e1')], version: 7, fetchedAt: 1_000 },
      { key: 'monsore/projects', rows: [row('p1')], fetchedAt: 1_000 },
      { key: 'other/sites', rows: [row('o1')], version: 1, fetchedAt: 1_000 },
    ]);
    const client = new QueryClient();
    const asked: string[] = [];
    const stop = startKeptTablesRefresh(db, client, async (application, reference) => {
      asked.push(`${application}/${reference}`);
      return { rows: [row('new')], version: 9 };
    });
    client.setQueryData(['application', 'monsore', 'view'], {
      name: 'monsore',
      entryVersions: { sites: 5, species: 7, projects: 2, counts: 12 },
    });
    await expect.poll(async () => (await db.referenceRows.get('monsore/projects'))?.version).toBe(9);
    await expect.poll(async () => (await db.referenceRows.get('monsore/sites'))?.version).toBe(9);
    stop();
    // The unchanged table, a table not kept (counts) and another application's table are left alone.
    expect(asked.sort()).toEqual(['monsore/projects', 'monsore/sites']);
    expect((await db.referenceRows.get('monsore/species'))?.rows).toEqual([row('e1')]);
    expect((await db.referenceRows.get('other/sites'))?.version).toBe(1);
  });
});
