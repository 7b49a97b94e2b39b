import type { KeptRow } from '@/domain/rows/filterRows';
import { downloadReferenceRows, type DownloadedReference } from '@/lib/api/referenceRows';
import { offlineDb } from './db';

const keyOf = (application: string, reference: string) => `${application}/${reference}`;

export async function cacheReferenceRows(
  application: string,
  reference: string,
  { rows, version }: DownloadedReference,
  fetchedAt = Date.now(),
) {
  await offlineDb.referenceRows.put({ key: keyOf(application, reference), rows, version, fetchedAt });
}

export async function cachedReferenceRows(application: string, reference: string) {
  return offlineDb.referenceRows.get(keyOf(application, reference));
}

/** Downloads a whole reference and keeps it on the device (offline checks and tables); answers its rows. */
export async function keepReference(application: string, reference: string): Promise<KeptRow[]> {
  const downloaded = await downloadReferenceRows(application, reference);
  await cacheReferenceRows(application, reference, downloaded);
  return downloaded.rows;
}
