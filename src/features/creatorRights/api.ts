import type { AuthenticatedUser } from '@/domain/accounts/user';
import { callApi } from '@/lib/api/client';
import { roleChangePath } from '@/lib/api/roleChangePath';
import { currentLanguage } from '@/lib/i18n/setup';
import type { CachedRead } from '@/offline/queryCache';
import type { Submission } from '@/offline/outbox';
import type { RoleRequest } from './changes';

/** Every user with their creator rights, read through the cache (kept for offline use). */
export const usersForAdminRead: CachedRead<AuthenticatedUser[]> = {
  queryKey: ['creatorRights', 'users'],
  read: (signal) => callApi<AuthenticatedUser[]>('/authorizationForAdmin', { signal }),
};

/** A role change as an outbox change; changes to one user are applied in order. */
export function roleChange(request: RoleRequest): Submission {
  return {
    kind: request.grant ? 'role.grant' : 'role.revoke',
    summary: { role: request.role, login: request.login },
    resource: `user:${request.login}`,
    request: {
      method: request.grant ? 'PUT' : 'DELETE',
      path: roleChangePath(request.role, { userIdOrLogin: request.login, applicationPattern: request.patterns }),
      headers: { 'Accept-Language': currentLanguage() },
      body: { type: 'none' },
    },
  };
}
