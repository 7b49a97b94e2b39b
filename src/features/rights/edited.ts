import type { ApplicationOutline } from '@/domain/applications/outline';
import type { RightsRequestBody } from '@/contract/rightsRequests';
import {
  normalizeRules,
  PUBLIC_USER,
  type AuthorizationRequest,
  type RulesRequest,
} from '@/domain/rights/authorization';
import { periodInputOf, type PeriodInput } from '@/domain/rights/periodInput';
import { stateFromRules, type RightsTableState } from '@/domain/rights/rightsTable';

/** The rights table and the period a form shows for rights as sent (an authorization or a rights request). */
export interface RightsInput {
  rights: RightsTableState;
  period: PeriodInput;
}

/**
 * The rights and period of a refused change, for its form: rights on data the application no longer has are left
 * out (the application may have changed since); the form gives one period to all, the first bounded one.
 */
export function rightsInputOf(model: ApplicationOutline, request: RulesRequest, isPublic: boolean): RightsInput {
  const known = new Set(model.data.map((entry) => entry.name));
  const only = <T>(record: Record<string, T> | undefined) =>
    Object.fromEntries(Object.entries(record ?? {}).filter(([name]) => known.has(name)));
  const normalized = normalizeRules(
    model,
    {
      authorizationForAll: only(request.authorizationForAll),
      authorizationsWithRestriction: only(request.authorizationsWithRestriction),
    },
    isPublic,
  );
  if (!normalized.ok) return { rights: {}, period: periodInputOf(null, null) };
  const bounded = Object.values(normalized.rules.restricted)
    .flat()
    .find((grant) => grant.from || grant.to);
  return {
    rights: stateFromRules(model, normalized.rules),
    period: periodInputOf(bounded?.from ?? null, bounded?.to ?? null),
  };
}

/** The authorization form's fields for an authorization as sent. */
export function authorizationInputOf(model: ApplicationOutline, request: AuthorizationRequest) {
  const isPublic = isPublicRequest(request);
  return {
    name: request.name ?? '',
    description: request.description ?? '',
    users: (request.usersId ?? []).filter((user) => user !== PUBLIC_USER),
    ...rightsInputOf(model, request, isPublic),
  };
}

export const isPublicRequest = (request: AuthorizationRequest) => (request.usersId ?? []).includes(PUBLIC_USER);

/** The rights request form's fields for a request as sent. */
export function rightsRequestInputOf(model: ApplicationOutline, body: RightsRequestBody) {
  return {
    fields: Object.fromEntries(
      Object.entries(body.fields ?? {})
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([name, value]) => [name, String(value)]),
    ),
    comment: body.comment ?? '',
    ...rightsInputOf(model, body.rightsRequest ?? {}, false),
  };
}
