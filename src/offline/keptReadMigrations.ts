import type { PersistedQuery } from '@tanstack/query-persist-client-core';
import type { QueryKey } from '@tanstack/react-query';
import { CONTRACT_VERSION } from '@/contract/version';

/** Brings the data of a read kept at one contract version to the shape of the next. */
export type KeptReadMigration = (data: unknown, queryKey: QueryKey) => unknown;

/**
 * The step from each contract version to the next, by the version it starts from. Empty: no answer has changed
 * shape since versions were recorded. Wiping the copies instead would take from a field worker, offline, the
 * data they rely on.
 */
export const KEPT_READ_MIGRATIONS: Readonly<Record<number, KeptReadMigration>> = {};

/** Copies kept before versions were recorded are of the first: the shapes the screens then read, and still guard. */
export const UNRECORDED_VERSION = 1;

/**
 * A kept read brought to the running contract version, or undefined when it cannot be: kept by a later version
 * (a device that ran a newer build, then an older one), or with a step missing. Such a copy is not served; the
 * screen reads the server, or says it has no copy.
 */
export function currentKeptRead(
  stored: PersistedQuery,
  version: number = UNRECORDED_VERSION,
  {
    current = CONTRACT_VERSION,
    steps = KEPT_READ_MIGRATIONS,
  }: { current?: number; steps?: typeof KEPT_READ_MIGRATIONS } = {},
): PersistedQuery | undefined {
  if (version > current) return undefined;
  let data = stored.state.data;
  for (let from = version; from < current; from++) {
    const step = steps[from];
    if (!step) return undefined;
    data = step(data, stored.queryKey);
  }
  return data === stored.state.data ? stored : { ...stored, state: { ...stored.state, data } };
}
