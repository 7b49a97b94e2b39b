import type { ApplicationView } from '@/domain/applications/applicationView';
import { ApiError } from '@/lib/api/apiError';
import { cacheApplication, cachedApplication } from '@/offline/applicationCache';
import { fetchApplication } from './api';

/**
 * An application with its configuration: from the server when it answers (and then kept on the device), from
 * the device when the server is out of reach. `offlineSince` says when the kept copy was fetched.
 */
export async function loadApplication(name: string): Promise<{ view: ApplicationView; offlineSince?: number }> {
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
