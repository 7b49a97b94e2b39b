import { useEffect, useState } from 'react';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { ApiError } from '@/lib/api/apiError';
import { cacheApplicationList, cachedApplicationList } from '@/offline/applicationCache';
import { streamApplications } from '../api';

export interface ApplicationList {
  applications: ApplicationView[];
  /** 0 to 1 while the list streams in; 1 once complete. */
  progress: number;
  loading: boolean;
  error: unknown;
  /** Set when the list comes from this device because the server is out of reach: when it was fetched. */
  offlineSince?: number;
}

/**
 * Streams the application list: cards appear as their lines arrive, with the progress of the stream. A complete
 * list is kept on the device; when the server cannot be reached, the kept one is shown instead.
 */
export function useApplicationList(): ApplicationList {
  const [state, setState] = useState<ApplicationList>({
    applications: [],
    progress: 0,
    loading: true,
    error: undefined,
  });
  useEffect(() => {
    const abort = new AbortController();
    const byId = new Map<string, ApplicationView>();
    streamApplications((event) => {
      if (event.type === 'result') {
        byId.set(event.result.id, event.result);
        setState((s) => ({ ...s, applications: [...byId.values()] }));
      } else if (event.type === 'progress') {
        setState((s) => ({ ...s, progress: event.result }));
      }
    }, abort.signal)
      .then(() => {
        setState((s) => ({ ...s, progress: 1, loading: false }));
        void cacheApplicationList([...byId.values()]);
      })
      .catch(async (error: unknown) => {
        if ((error as Error).name === 'AbortError') return;
        const cached = error instanceof ApiError && error.isNetworkError ? await cachedApplicationList() : undefined;
        if (cached)
          setState({
            applications: cached.views,
            progress: 1,
            loading: false,
            error: undefined,
            offlineSince: cached.fetchedAt,
          });
        else setState((s) => ({ ...s, loading: false, error }));
      });
    return () => abort.abort();
  }, []);
  return state;
}
