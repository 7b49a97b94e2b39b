import { ApiError } from '@/lib/api/apiError';
import type { ViewedApplication } from '@/offline/useApplicationModel';
import { cacheApplication, cachedApplication } from '@/offline/applicationCache';
import { fetchApplication } from './api';

/**
 * An application with every part the user may see: from the server when it answers (and then kept on the device), from
 * the device when the server is out of reach. `offlineSince` says when the kept copy was fetched.
 */
export async function loadApplication(name: string): Promise<ViewedApplication> {
  try {
    const view = await fetchApplication(name);
    await cacheApplication(view);
    return { view };
  } catch (error) {
    const cached = error instanceof ApiError && error.isNetworkError ? await cachedApplication(name) : undefined;
    if (!cached) throw error;
    return { view: cached.view, offlineSince: cached.fetchedAt };
  }
}
