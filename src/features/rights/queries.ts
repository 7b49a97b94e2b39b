import type { QueryKey } from '@tanstack/react-query';
import type { ApplicationUser, AuthorizationList, AuthorizationView, Grantable } from '@/contract/authorizations';
import type {
  RequestOptions,
  RightsRequestList,
  RightsRequestQuery,
  RightsRequestView,
} from '@/contract/rightsRequests';
import { callApi } from '@/lib/api/client';
import type { CachedRead } from '@/offline/queryCache';
import { isUnreachable, keptCopies, keptCopy } from '@/offline/queryCache';

/**
 * The reads of the rights screens, each with its place in the read cache: the screens and "Make available offline"
 * use the same keys and the same reads, so what was kept is what the screens open on.
 */

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
const paramsOf = (query: RightsRequestQuery) => encodeURIComponent(JSON.stringify(query));

export const authorizationsRead = (application: string): CachedRead<AuthorizationList> => ({
  queryKey: ['application', application, 'authorizations'],
  read: (signal) => callApi<AuthorizationList>(`${app(application)}/authorization`, { signal }),
});

export const grantableRead = (application: string): CachedRead<Grantable> => ({
  queryKey: ['application', application, 'grantable'],
  read: (signal) => callApi<Grantable>(`${app(application)}/grantable`, { signal }),
});

export const authorizationRead = (application: string, id: string): CachedRead<AuthorizationView> => ({
  queryKey: ['application', application, 'authorization', id],
  read: (signal) =>
    callApi<AuthorizationView>(`${app(application)}/authorization/${encodeURIComponent(id)}`, { signal }),
});

export const applicationUsersRead = (application: string): CachedRead<ApplicationUser[]> => ({
  queryKey: ['application', application, 'applicationUsers'],
  read: (signal) => callApi<ApplicationUser[]>(`${app(application)}/authorizationAdminForApplication`, { signal }),
});

export const requestOptionsRead = (application: string): CachedRead<RequestOptions> => ({
  queryKey: ['application', application, 'rightsRequestOptions'],
  read: (signal) => callApi<RequestOptions>(`${app(application)}/rightsRequest/options`, { signal }),
});

const REQUESTS_PREFIX = 'rightsRequests';

/** A page of requests under a query (filters, offset, limit); every page seen is kept for offline use. */
export const rightsRequestsRead = (application: string, query: RightsRequestQuery): CachedRead<RightsRequestList> => ({
  queryKey: ['application', application, REQUESTS_PREFIX, query],
  read: (signal) =>
    callApi<RightsRequestList>(`${app(application)}/rightsRequest?params=${paramsOf(query)}`, { signal }),
});

/** One request (null when there is none), with, when it was found in a kept list instead, when that was fetched. */
export interface FoundRequest {
  request: RightsRequestView | null;
  keptAt?: number;
  /** The labels of the request's reference values (see the list's `valueLabels`); absent from copies kept before. */
  valueLabels?: RightsRequestList['valueLabels'];
}

/**
 * One request, from the server; when the server is out of reach, as this device kept it when last opened, or else
 * from a page of the list this device kept that holds it.
 */
export const rightsRequestRead = (application: string, id: string): CachedRead<FoundRequest> => {
  const queryKey = ['application', application, 'rightsRequest', id];
  return { queryKey, read: (signal) => readRequest(application, id, queryKey, signal) };
};

async function readRequest(
  application: string,
  id: string,
  queryKey: QueryKey,
  signal?: AbortSignal,
): Promise<FoundRequest> {
  try {
    const list = await rightsRequestsRead(application, { uuids: [id] }).read(signal);
    return { request: list.rightsRequests[0] ?? null, valueLabels: list.valueLabels };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    const own = await keptCopy<FoundRequest>(queryKey);
    if (own) return { ...own.value, keptAt: own.value.keptAt ?? own.offlineSince };
    for (const kept of await keptCopies<RightsRequestList>(['application', application, REQUESTS_PREFIX])) {
      const found = kept.value.rightsRequests.find((r) => r.id === id);
      if (found) return { request: found, keptAt: kept.offlineSince, valueLabels: kept.value.valueLabels };
    }
    throw error;
  }
}
