import type { ApplicationView } from '@/contract/applications';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { ApplicationModel } from '@/domain/configuration/model';
import { callApi } from '@/lib/api/client';
import { useKeptQuery } from './useKeptQuery';

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

/** Where the cache keeps an application as the server describes it to the user. */
export const applicationViewKey = (name: string) => ['application', name, 'view'] as const;

export const fetchApplicationView = (name: string, signal?: AbortSignal) =>
  callApi<ApplicationView>(`/applications/${encodeURIComponent(name)}?filter=ALL`, { signal });

/** The application with every part, from the server or, offline, from the device. */
export function useApplicationView(name: string): { application?: ViewedApplication; error?: unknown; reload(): void } {
  const { data, error, offlineSince, reload } = useKeptQuery(applicationViewKey(name), (signal) =>
    fetchApplicationView(name, signal),
  );
  return { application: data && { view: data, offlineSince }, error, reload };
}
