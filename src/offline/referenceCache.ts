import type { KeptRow } from '@/domain/rows/filterRows';
import { offlineDb } from './db';

const keyOf = (application: string, reference: string) => `${application}/${reference}`;

export async function cacheReferenceRows(
  application: string,
  reference: string,
  rows: KeptRow[],
  fetchedAt = Date.now(),
) {
  await offlineDb.referenceRows.put({ key: keyOf(application, reference), rows, fetchedAt });
}

export async function cachedReferenceRows(application: string, reference: string) {
  return offlineDb.referenceRows.get(keyOf(application, reference));
}
