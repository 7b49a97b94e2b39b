import type { ApplicationView } from '@/domain/applications/applicationView';
import { offlineDb } from './db';

/** Keeps the list as received, so it can be browsed offline; applications that disappeared leave the cache. */
export async function cacheApplicationList(views: ApplicationView[], fetchedAt = Date.now()) {
  await offlineDb.transaction('rw', offlineDb.applications, async () => {
    await offlineDb.applications.clear();
    await offlineDb.applications.bulkPut(views.map((view) => ({ name: view.name, view, fetchedAt })));
  });
}

export async function cachedApplicationList(): Promise<{ views: ApplicationView[]; fetchedAt: number } | undefined> {
  const rows = await offlineDb.applications.toArray();
  if (rows.length === 0) return undefined;
  return { views: rows.map((r) => r.view), fetchedAt: Math.min(...rows.map((r) => r.fetchedAt)) };
}

export async function cacheApplication(view: ApplicationView, fetchedAt = Date.now()) {
  await offlineDb.applicationDetails.put({ name: view.name, view, fetchedAt });
}

export async function cachedApplication(name: string) {
  return offlineDb.applicationDetails.get(name);
}
