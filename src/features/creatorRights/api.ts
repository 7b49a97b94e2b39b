import type { AuthenticatedUser } from '@/domain/accounts/user';
import { callApi } from '@/lib/api/client';

export const fetchUsersForAdmin = () => callApi<AuthenticatedUser[]>('/authorizationForAdmin');

type Role = 'terrainAdmin' | 'applicationCreator';

function roleQuery(userIdOrLogin: string, patterns: string[]) {
  const query = new URLSearchParams({ userIdOrLogin });
  for (const pattern of patterns) query.append('applicationPattern', pattern);
  return query.toString();
}

export const grantRole = (role: Role, userIdOrLogin: string, patterns: string[] = []) =>
  callApi<AuthenticatedUser>(`/authorization/${role}?${roleQuery(userIdOrLogin, patterns)}`, { method: 'PUT' });

export const revokeRole = (role: Role, userIdOrLogin: string, patterns: string[] = []) =>
  callApi<AuthenticatedUser>(`/authorization/${role}?${roleQuery(userIdOrLogin, patterns)}`, { method: 'DELETE' });
