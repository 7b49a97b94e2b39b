import type {
  RequestOptions,
  RightsRequestBody,
  RightsRequestList,
  RightsRequestQuery,
  RightsRequestView,
} from '@/contract/rightsRequests';
import type { RequestedEntry } from '@/domain/rights/rightsRequest';
import { ApiError } from '@/lib/api/apiError';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import { keptCall, readKept, type Kept } from '@/offline/keptCall';
import type { Submission } from '@/offline/outbox';

export type { RequestOptions, RightsRequestList, RightsRequestQuery, RightsRequestView };

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
const paramsOf = (query: RightsRequestQuery) => encodeURIComponent(JSON.stringify(query));

export const fetchRequestOptions = (application: string) =>
  keptCall(`rightsRequestOptions:${application}`, () =>
    callApi<RequestOptions>(`${app(application)}/rightsRequest/options`),
  );

export async function fetchRightsRequests(
  application: string,
  query: RightsRequestQuery,
): Promise<Kept<RightsRequestList>> {
  const call = () => callApi<RightsRequestList>(`${app(application)}/rightsRequest?params=${paramsOf(query)}`);
  // Only the unfiltered first page is kept: it is what the list shows when it opens.
  const unfiltered =
    !query.uuids && query.setted == null && !query.fieldFilters?.length && !query.search && !query.offset;
  return unfiltered ? keptCall(`rightsRequests:${application}`, call) : { value: await call() };
}

/** One request, from the server or from the list this device kept. */
export async function fetchRightsRequest(application: string, id: string): Promise<Kept<RightsRequestView | null>> {
  try {
    const list = await callApi<RightsRequestList>(
      `${app(application)}/rightsRequest?params=${encodeURIComponent(JSON.stringify({ uuids: [id] }))}`,
    );
    return { value: list.rightsRequests[0] ?? null };
  } catch (error) {
    if (!(error instanceof ApiError && error.isNetworkError)) throw error;
    const kept = await readKept<RightsRequestList>(`rightsRequests:${application}`);
    const found = kept?.value.rightsRequests.find((r) => r.id === id);
    if (!kept || !found) throw error;
    return { value: found, offlineSince: kept.offlineSince };
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
