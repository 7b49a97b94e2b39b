import Dexie, { type EntityTable } from 'dexie';

/**
 * The browser database. Each later feature adds its stores in a new version here (never by editing an
 * existing version), so tablets that kept data across updates upgrade in place.
 */
export interface Setting {
  key: string;
  value: unknown;
}

export class TerrainDatabase extends Dexie {
  settings!: EntityTable<Setting, 'key'>;

  constructor(name = 'terrain') {
    super(name);
    this.version(1).stores({ settings: 'key' });
  }
}

export const offlineDb = new TerrainDatabase();

export async function readSetting<T>(key: string): Promise<T | undefined> {
  return (await offlineDb.settings.get(key))?.value as T | undefined;
}

export async function writeSetting(key: string, value: unknown): Promise<void> {
  await offlineDb.settings.put({ key, value });
}
