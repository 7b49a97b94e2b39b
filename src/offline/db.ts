import Dexie, { type EntityTable } from 'dexie';
import type { PersistedQuery } from '@tanstack/query-persist-client-core';
import type { KeptRow } from '@/domain/rows/filterRows';
import { sortedDatasetResource } from './datasetResource';
import type { OutboxItem } from './outboxTypes';

/**
 * The browser database. Each later feature adds its stores in a new version here (never by editing an
 * existing version), so tablets that kept data across updates upgrade in place.
 */
export interface Setting {
  key: string;
  value: unknown;
}

/** One read of the query cache, kept on the device (see queryCache). */
export interface KeptQuery {
  /** `<login>\u0000<persister key>` */
  key: string;
  value: PersistedQuery;
  /** The contract version its answer has the shape of (src/contract/version.ts); absent on older copies. */
  version?: number;
}

/** Every row of one reference, as last downloaded (offline consultation and validation). */
export interface CachedReferenceRows {
  /** `<application>/<reference>` */
  key: string;
  rows: KeptRow[];
  /** The entry's write version the copy is of (see entryVersions in the application); absent on older copies. */
  version?: number;
  /** The copy holds the part of the reference its user may read (the reference scopes its own rights). */
  part?: boolean;
  fetchedAt: number;
}

export class TerrainDatabase extends Dexie {
  settings!: EntityTable<Setting, 'key'>;
  outbox!: EntityTable<OutboxItem, 'id'>;
  referenceRows!: EntityTable<CachedReferenceRows, 'key'>;
  queries!: EntityTable<KeptQuery, 'key'>;

  constructor(name = 'terrain') {
    super(name);
    this.version(1).stores({ settings: 'key' });
    this.version(2).stores({
      outbox: '++id, status, resource',
      applications: 'name',
      applicationDetails: 'name',
    });
    this.version(3).stores({ referenceRows: 'key' });
    // Since when this device's pending changes are known: a database created anew (first visit, or the site's data
    // cleared) starts its list empty, and the pending changes page must not claim more than it knows. A database
    // that existed before the date was recorded knows at least as much from its upgrade on.
    const recordStart = (settings: Dexie.Table) => settings.put({ key: CHANGES_KEPT_SINCE_SETTING, value: Date.now() });
    this.on('populate', (transaction) => recordStart(transaction.table('settings')));
    this.version(4)
      .stores({})
      .upgrade((transaction) => recordStart(transaction.table('settings')));
    // Every read now goes through the query cache; the copies kept by hand before it are dropped.
    this.version(5)
      .stores({ queries: 'key', applications: null, applicationDetails: null })
      .upgrade((transaction) =>
        transaction
          .table('settings')
          .filter((setting: Setting) => /^(rightsRequest|additionalFiles)/.test(setting.key))
          .delete(),
      );
    // A dataset's changes queued before its resource's scope was sorted join those queued after, in one order.
    this.version(6)
      .stores({})
      .upgrade((transaction) =>
        transaction
          .table('outbox')
          .toCollection()
          .modify((item: OutboxItem) => {
            item.resource = sortedDatasetResource(item.resource);
          }),
      );
  }
}

export const offlineDb = new TerrainDatabase();

/** When this device began keeping its pending changes (see the database's `populate`). */
export const CHANGES_KEPT_SINCE_SETTING = 'changesKeptSince';

/** The setting where the page records who is signed in, for the outbox of the page and of the service worker alike. */
export const SIGNED_IN_SETTING = 'signedIn';

export async function readSetting<T>(key: string): Promise<T | undefined> {
  return (await offlineDb.settings.get(key))?.value as T | undefined;
}

export async function writeSetting(key: string, value: unknown): Promise<void> {
  await offlineDb.settings.put({ key, value });
}
