import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { datasetResource, sortedDatasetResource } from './datasetResource';
import { TerrainDatabase } from './db';

describe('the outbox resource of a dataset', () => {
  it('is the same whatever the order of its scope, as the form or the server gives it', () => {
    const fromForm = datasetResource('alps', 'counts', { project: 'projectsKalps', site: 'sitesKlac_blanc' });
    const fromServer = datasetResource('alps', 'counts', { site: 'sitesKlac_blanc', project: 'projectsKalps' });
    expect(fromServer).toBe(fromForm);
    expect(fromForm).not.toBe(datasetResource('alps', 'counts', { project: 'projectsKalps', site: 'sitesKmont_joly' }));
  });

  it('is written sorted for changes queued before it was, when the device’s database is upgraded', async () => {
    const unsorted = `dataset:alps/counts/${JSON.stringify({ site: 'sitesKlac_blanc', project: 'projectsKalps' })}`;
    expect(sortedDatasetResource(unsorted)).toBe(
      datasetResource('alps', 'counts', { project: 'projectsKalps', site: 'sitesKlac_blanc' }),
    );
    for (const other of ['application:alps', 'dataset:alps/counts/{not json}', 'dataset:alps/counts/[1]'])
      expect(sortedDatasetResource(other)).toBe(other);

    // A device's database as the version before kept it, holding a deposit queued then.
    const before = new Dexie('dataset-resource-upgrade');
    before
      .version(5)
      .stores({ settings: 'key', outbox: '++id, status, resource', referenceRows: 'key', queries: 'key' });
    await before.table('outbox').add({ status: 'queued', resource: unsorted });
    await before.table('outbox').add({ status: 'queued', resource: 'application:alps' });
    before.close();
    const after = new TerrainDatabase('dataset-resource-upgrade');
    expect((await after.outbox.toArray()).map((item) => item.resource)).toEqual([
      datasetResource('alps', 'counts', { site: 'sitesKlac_blanc', project: 'projectsKalps' }),
      'application:alps',
    ]);
    after.close();
  });
});
