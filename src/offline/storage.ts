/** How much the browser lets this site keep, and whether it promised not to evict it. */
export interface StorageState {
  usedBytes?: number;
  quotaBytes?: number;
  persisted: boolean;
}

export async function storageState(): Promise<StorageState> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage) return { persisted: false };
  const [estimate, persisted] = await Promise.all([
    storage.estimate?.().catch(() => undefined),
    storage.persisted?.().catch(() => false),
  ]);
  return { usedBytes: estimate?.usage, quotaBytes: estimate?.quota, persisted: Boolean(persisted) };
}

/**
 * Asks the browser to keep this site's data even when space runs low, unless it already does: without it, a
 * tablet may silently drop the offline copies — and the pending changes — under storage pressure. Asked when an
 * application is made available offline and the moment a change is kept on the device, since that change exists
 * nowhere else until it is sent. Answers whether the storage is now persistent.
 */
export async function keepStorage(): Promise<boolean> {
  if (await navigator.storage?.persisted?.().catch(() => false)) return true;
  return (await navigator.storage?.persist?.().catch(() => false)) ?? false;
}

/** The share of the quota past which a device is close to refusing new changes (a deposit is megabytes). */
const NEARLY_FULL = 0.9;

/** Whether the site has used most of what the browser lets it keep: the next large change may not fit. */
export function isNearlyFull(state: StorageState): boolean {
  return (
    state.usedBytes !== undefined && Boolean(state.quotaBytes) && state.usedBytes / state.quotaBytes! >= NEARLY_FULL
  );
}
