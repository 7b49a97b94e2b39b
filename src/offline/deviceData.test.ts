import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { TerrainDatabase } from './db';
import { deviceDataProblemOf, openDeviceData, withoutDeviceData } from './deviceData';

let databases = 0;

/** A later version of the database whose upgrade fails with `error`, over a database kept by the current one. */
async function failingUpgrade(error: () => Error): Promise<TerrainDatabase> {
  const name = `device-data-test-${++databases}`;
  const current = new TerrainDatabase(name);
  await current.outbox.count();
  current.close();
  const later = new TerrainDatabase(name);
  later
    .version(99)
    .stores({})
    .upgrade(() => {
      throw error();
    });
  return later;
}

describe("the device's data", () => {
  it('says the device is full when the upgrade met the quota, through the errors Dexie wraps it in', async () => {
    const db = await failingUpgrade(() => new DOMException('The quota was exceeded.', 'QuotaExceededError'));
    expect(await openDeviceData(db)).toBe('full');
  });

  it('says it cannot be opened for any other failure', async () => {
    const db = await failingUpgrade(() => new Error('something else'));
    expect(await openDeviceData(db)).toBe('unavailable');
    expect(deviceDataProblemOf(new DOMException('blocked', 'UnknownError'))).toBe('unavailable');
  });

  it('opens as usual, and reads of a database that could not open answer without it', async () => {
    expect(await openDeviceData(new TerrainDatabase(`device-data-test-${++databases}`))).toBeUndefined();
    const failed = await failingUpgrade(() => new Error('broken'));
    await openDeviceData(failed);
    expect(await failed.outbox.count().catch(withoutDeviceData(0, failed))).toBe(0);
    const healthy = new TerrainDatabase(`device-data-test-${++databases}`);
    await expect(Promise.reject(new Error('own')).catch(withoutDeviceData(0, healthy))).rejects.toThrow('own');
  });
});
