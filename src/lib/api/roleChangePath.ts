import type { PlatformRole, RoleQuery } from '@/contract/platformRoles';

/** The path of a role grant or revocation: one `applicationPattern` per pattern, as the server reads them. */
export function roleChangePath(role: PlatformRole, query: RoleQuery): string {
  const search = new URLSearchParams({ userIdOrLogin: query.userIdOrLogin });
  for (const pattern of [query.applicationPattern ?? []].flat()) search.append('applicationPattern', pattern);
  if (query.applicationNameOrId !== undefined) search.append('applicationNameOrId', query.applicationNameOrId);
  return `/authorization/${role}?${search}`;
}
