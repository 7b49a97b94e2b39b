import type {
  RequestOptions,
  RightsRequestBody,
  RightsRequestList,
  RightsRequestQuery,
  RightsRequestView,
} from '@/contract/rightsRequests';
import type { RequestedEntry } from '@/domain/rights/rightsRequest';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

export type { RequestOptions, RightsRequestList, RightsRequestQuery, RightsRequestView };

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;

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
