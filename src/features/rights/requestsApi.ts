import type {
  RequestOptions,
  RightsRequestBody,
  RightsRequestList,
  RightsRequestQuery,
  RightsRequestView,
} from '@/contract/rightsRequests';
import type { RequestedEntry } from '@/domain/rights/rightsRequest';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import { isUnreachable, keptCopies, keptRead, type Kept } from '@/offline/queryCache';
import type { Submission } from '@/offline/outbox';

export type { RequestOptions, RightsRequestList, RightsRequestQuery, RightsRequestView };

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
const paramsOf = (query: RightsRequestQuery) => encodeURIComponent(JSON.stringify(query));

export const fetchRequestOptions = (application: string) =>
  keptRead(['application', application, 'rightsRequestOptions'], () =>
    callApi<RequestOptions>(`${app(application)}/rightsRequest/options`),
  );

const requestsKey = (application: string, query: RightsRequestQuery) =>
  ['application', application, 'rightsRequests', query] as const;

/** A page of requests; every page seen is kept for offline use. */
export const fetchRightsRequests = (application: string, query: RightsRequestQuery): Promise<Kept<RightsRequestList>> =>
  keptRead(requestsKey(application, query), () =>
    callApi<RightsRequestList>(`${app(application)}/rightsRequest?params=${paramsOf(query)}`),
  );

/** One request, from the server, or from what this device kept of it or of the list it opened on. */
export async function fetchRightsRequest(application: string, id: string): Promise<Kept<RightsRequestView | null>> {
  try {
    const { value, offlineSince } = await fetchRightsRequests(application, { uuids: [id] });
    return { value: value.rightsRequests[0] ?? null, offlineSince };
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    for (const kept of await keptCopies<RightsRequestList>(['application', application, 'rightsRequests'])) {
      const found = kept.value.rightsRequests.find((r) => r.id === id);
      if (found) return { value: found, offlineSince: kept.offlineSince };
    }
    throw error;
  }
}

export type RequestAction = 'ask' | 'modify' | 'grant' | 'close';

/** A save of a request through the outbox; `login` names the requester on the pending-changes page. */
export function rightsRequestSave(
  application: string,
  body: RightsRequestBody,
  action: RequestAction,
  login: string,
): Submission {
  return {
    kind: 'rightsRequest.save',
    summary: { name: application, action, login },
    // A new request is its own resource; changes to one request are sent in the order they were made.
    resource: `rightsRequest:${application}/${body.id ?? globalThis.crypto.randomUUID()}`,
    input: body,
    request: {
      method: 'POST',
      path: `${app(application)}/rightsRequest`,
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'json', value: body },
    },
  };
}

/** The period of requested rights: the first bounded one (the forms give one period to all). */
export function periodOfEntries(entries: Record<string, RequestedEntry[]>): { from: string | null; to: string | null } {
  const bounded = Object.values(entries)
    .flat()
    .find((entry) => entry.fromDay || entry.toDay);
  return { from: bounded?.fromDay ?? null, to: bounded?.toDay ?? null };
}
