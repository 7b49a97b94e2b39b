import { useEffect, useState } from 'react';
import type { ApplicationView } from '@/contract/applications';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { ApplicationModel } from '@/domain/configuration/model';
import { ApiError } from '@/lib/api/apiError';
import { callApi } from '@/lib/api/client';
import { cacheApplication, cachedApplication } from './applicationCache';

/** An application as the server describes it to the user, and when the device's copy was fetched (offline). */
export interface ViewedApplication {
  view: ApplicationView;
  offlineSince?: number;
}

/**
 * The application with its model, for a page: the whole configuration by default, the outline for the pages anyone
 * may open (rights requests); the server gives the configuration only to those who may read the data.
 */
export interface LoadedApplication<Model extends ApplicationOutline = ApplicationModel> extends ViewedApplication {
  model: Model;
}

/** The application with its whole configuration, or undefined when the user may not read its data. */
export function withConfiguration(application: ViewedApplication): LoadedApplication | undefined {
  const model = application.view.configuration;
  return model ? { ...application, model } : undefined;
}

/** The application with as much of its configuration as the user may know: the whole of it, or its outline. */
export function withOutline(application: ViewedApplication): LoadedApplication<ApplicationOutline> | undefined {
  const model = application.view.configuration ?? application.view.outline;
  return model ? { ...application, model } : undefined;
}

/** The application with every part, from the server or, offline, from the device. */
export function useApplicationView(name: string): { application?: ViewedApplication; error?: unknown; reload(): void } {
  const [state, setState] = useState<{ application?: ViewedApplication; error?: unknown }>({});
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}?filter=ALL`)
      .then(async (view) => {
        await cacheApplication(view);
        if (live) setState({ application: { view } });
      })
      .catch(async (error: unknown) => {
        const cached = error instanceof ApiError && error.isNetworkError ? await cachedApplication(name) : undefined;
        if (!live) return;
        if (cached) setState({ application: { view: cached.view, offlineSince: cached.fetchedAt } });
        else setState({ error });
      });
    return () => {
      live = false;
    };
  }, [name, generation]);
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}
