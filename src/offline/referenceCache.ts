import { downloadReferenceRows, type DownloadedReference } from '@/lib/api/referenceRows';
import { offlineDb } from './db';

const keyOf = (application: string, reference: string) => `${application}/${reference}`;

export async function cacheReferenceRows(
  application: string,
  reference: string,
  { rows, version, part }: DownloadedReference,
  fetchedAt = Date.now(),
) {
  await offlineDb.referenceRows.put({ key: keyOf(application, reference), rows, version, part, fetchedAt });
}

export async function cachedReferenceRows(application: string, reference: string) {
  return offlineDb.referenceRows.get(keyOf(application, reference));
}

/** Downloads the rows of a reference its user may read and keeps them on the device (offline checks and tables). */
export async function keepReference(application: string, reference: string): Promise<DownloadedReference> {
  const downloaded = await downloadReferenceRows(application, reference);
  await cacheReferenceRows(application, reference, downloaded);
  return downloaded;
}
