import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { APPLICATION_LIST_KEY, isUnreachable } from '@/offline/queryCache';
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
 * Streams the application list: the first time, cards appear as their lines arrive, with the progress of the stream;
 * afterwards the list read before shows at once while the new one streams. When the server cannot be reached, the
 * list kept on the device is shown with its date.
 */
export function useApplicationList(): ApplicationList {
  const client = useQueryClient();
  const [progress, setProgress] = useState(0);
  const query = useQuery({
    queryKey: APPLICATION_LIST_KEY,
    queryFn: async ({ signal }) => {
      const byId = new Map<string, ApplicationView>();
      const showPartial = client.getQueryData(APPLICATION_LIST_KEY) === undefined;
      setProgress(0);
      await streamApplications((event) => {
        if (event.type === 'result') {
          byId.set(event.result.id, event.result);
          if (showPartial) client.setQueryData(APPLICATION_LIST_KEY, [...byId.values()]);
        } else if (event.type === 'progress') setProgress(event.result);
      }, signal);
      setProgress(1);
      return [...byId.values()];
    },
  });
  const keptInstead = query.error !== null && isUnreachable(query.error) && query.data !== undefined;
  return {
    applications: query.error && !keptInstead ? [] : (query.data ?? []),
    progress,
    loading: query.isFetching,
    error: keptInstead ? undefined : query.error,
    offlineSince: keptInstead ? query.dataUpdatedAt : undefined,
  };
}
