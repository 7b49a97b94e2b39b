import { useSyncExternalStore } from 'react';
import { offlineDb, type TerrainDatabase } from './db';
import { isStorageFull } from './storageErrors';

/**
 * Whether this device's database (pending changes, kept reads, settings) opened. An upgrade meeting a full disk, or
 * any other failure, otherwise surfaced in the first screen reading it, as the generic error page. The data stays as
 * it was (the upgrade rolls back); meanwhile Terrain works online, without the device's copies.
 */
export type DeviceDataProblem = 'full' | 'unavailable';

export const deviceDataProblemOf = (error: unknown): DeviceDataProblem =>
  isStorageFull(error) ? 'full' : 'unavailable';

let problem: DeviceDataProblem | undefined;
const listeners = new Set<() => void>();

/** Opens the device's database at start: its failure is then told once, rather than met by each screen. */
export async function openDeviceData(db: TerrainDatabase = offlineDb): Promise<DeviceDataProblem | undefined> {
  try {
    await db.open();
    return undefined;
  } catch (error) {
    problem = deviceDataProblemOf(error);
    listeners.forEach((listener) => listener());
    return problem;
  }
}

export function useDeviceDataProblem(): DeviceDataProblem | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => problem,
    () => undefined,
  );
}

/**
 * A read of the device's data that answers `fallback` when the database could not open, so the screen goes on
 * without it: `.catch(withoutDeviceData(fallback))`. Any other failure is the read's own.
 */
export function withoutDeviceData<T>(fallback: T, db: TerrainDatabase = offlineDb) {
  return (error: unknown): T => {
    if (db.hasFailed()) return fallback;
    throw error;
  };
}
