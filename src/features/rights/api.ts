import type { ApplicationUser, AuthorizationView, Grantable, ScopeNode } from '@/contract/authorizations';
import type { AuthorizationRequest, AuthorizationRules } from '@/domain/rights/authorization';
import { roleChangePath } from '@/lib/api/roleChangePath';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';

export type { ApplicationUser, AuthorizationView, Grantable, ScopeNode };

const app = (name: string) => `/applications/${encodeURIComponent(name)}`;

/** The stored rules of an authorization, as the rights table reads them. */
export function rulesOfView(view: AuthorizationView): AuthorizationRules {
  return {
    forAll: view.authorizationForAll,
    restricted: Object.fromEntries(
      Object.entries(view.authorizationsWithRestriction).map(([name, grants]) => [
        name,
        grants.map((grant) => ({
          operations: grant.operationTypes,
          scopes: grant.requiredAuthorizations,
          from: grant.fromDay,
          to: grant.toDay,
        })),
      ]),
    ),
  };
}

/** The period of an authorization: the first bounded one among its restrictions (the form gives one period to all). */
export function periodOfView(view: AuthorizationView): { from: string | null; to: string | null } {
  const bounded = Object.values(view.authorizationsWithRestriction)
    .flat()
    .find((grant) => grant.fromDay || grant.toDay);
  return { from: bounded?.fromDay ?? null, to: bounded?.toDay ?? null };
}

const headers = () => ({ 'Accept-Language': currentLanguage() });

export function authorizationSave(application: string, request: AuthorizationRequest): Submission {
  return {
    kind: 'authorization.save',
    summary: { name: application, authorization: request.name ?? '' },
    resource: `authorization:${application}/${request.uuid ?? request.name}`,
    input: request,
    request: {
      method: 'POST',
      path: `${app(application)}/authorization`,
      headers: headers(),
      body: { type: 'json', value: request },
    },
  };
}

export function authorizationRevoke(application: string, authorization: AuthorizationView): Submission {
  return {
    kind: 'authorization.revoke',
    summary: { name: application, authorization: authorization.name },
    resource: `authorization:${application}/${authorization.uuid}`,
    request: {
      method: 'DELETE',
      path: `${app(application)}/authorization/${authorization.uuid}`,
      headers: headers(),
      body: { type: 'none' },
    },
  };
}

export function applicationRoleChange(
  application: string,
  role: 'applicationManager' | 'userManager',
  login: string,
  grant: boolean,
): Submission {
  return {
    kind: grant ? 'role.grant' : 'role.revoke',
    summary: { role, login },
    resource: `user:${login}`,
    request: {
      method: grant ? 'PUT' : 'DELETE',
      path: roleChangePath(role, { userIdOrLogin: login, applicationNameOrId: application }),
      headers: headers(),
      body: { type: 'none' },
    },
  };
}

/** Hierarchical key → label of every node of the scope trees, to name the places an authorization covers. */
export function scopeLabelsOf(grantable: Grantable | null): Map<string, string> {
  const labels = new Map<string, string>();
  const visit = (nodes: ScopeNode[]) => {
    for (const node of nodes) {
      labels.set(node.id, node.label);
      visit(node.children);
    }
  };
  for (const scopes of Object.values(grantable?.referenceScopes ?? {})) for (const scope of scopes) visit(scope.nodes);
  return labels;
}
