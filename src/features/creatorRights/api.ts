import type { AuthenticatedUser } from '@/domain/accounts/user';
import { callApi } from '@/lib/api/client';
import { currentLanguage } from '@/lib/i18n/setup';
import type { Submission } from '@/offline/outbox';
import type { RoleRequest } from './changes';

export const fetchUsersForAdmin = () => callApi<AuthenticatedUser[]>('/authorizationForAdmin');

/** A role change as an outbox change; changes to one user are applied in order. */
export function roleChange(request: RoleRequest): Submission {
  const query = new URLSearchParams({ userIdOrLogin: request.login });
  for (const pattern of request.patterns) query.append('applicationPattern', pattern);
  return {
    kind: request.grant ? 'role.grant' : 'role.revoke',
    summary: { role: request.role, login: request.login },
    resource: `user:${request.login}`,
    request: {
      method: request.grant ? 'PUT' : 'DELETE',
      path: `/authorization/${request.role}?${query}`,
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'none' },
    },
  };
}
