import { useEffect, useState } from 'react';
import type { ApplicationView } from '@/domain/applications/applicationView';
import type { ApplicationModel } from '@/domain/configuration/model';
import { ApiError } from '@/lib/api/apiError';
import { callApi } from '@/lib/api/client';
import { cacheApplication, cachedApplication } from '@/offline/applicationCache';

export interface LoadedApplication {
  view: ApplicationView;
  model: ApplicationModel;
  offlineSince?: number;
}

/** The application with its configuration, from the server or, offline, from the device. */
export function useApplicationModel(name: string): { application?: LoadedApplication; error?: unknown; reload(): void } {
  const [state, setState] = useState<{ application?: LoadedApplication; error?: unknown }>({});
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}?filter=ALL`)
      .then(async (view) => {
        await cacheApplication(view);
        if (live) setState({ application: { view, model: view.configuration! } });
      })
      .catch(async (error: unknown) => {
        const cached = error instanceof ApiError && error.isNetworkError ? await cachedApplication(name) : undefined;
        if (!live) return;
        if (cached?.view.configuration) setState({ application: { view: cached.view, model: cached.view.configuration, offlineSince: cached.fetchedAt } });
        else setState({ error });
      });
    return () => {
      live = false;
    };
  }, [name, generation]);
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}
