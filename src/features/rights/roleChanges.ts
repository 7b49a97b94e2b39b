/** The roles a manager gives on an application from the users table. */
export type ApplicationRole = 'applicationManager' | 'userManager';

/** Per role, the logins to add and to remove, relative to what the server holds. */
export type RoleChanges = Record<ApplicationRole, { add: string[]; remove: string[] }>;

export const noRoleChanges = (): RoleChanges => ({
  applicationManager: { add: [], remove: [] },
  userManager: { add: [], remove: [] },
});

const without = (list: string[], login: string) => list.filter((l) => l !== login);

/** Ticking a box back to the stored state cancels the pending change (unchecking a just-added user cancels the add). */
export function toggleRole(
  changes: RoleChanges,
  role: ApplicationRole,
  login: string,
  stored: boolean,
  checked: boolean,
): RoleChanges {
  const current = changes[role];
  const next = { add: without(current.add, login), remove: without(current.remove, login) };
  if (checked !== stored) (checked ? next.add : next.remove).push(login);
  return { ...changes, [role]: next };
}

export function shownRole(changes: RoleChanges, role: ApplicationRole, login: string, stored: boolean): boolean {
  if (changes[role].add.includes(login)) return true;
  if (changes[role].remove.includes(login)) return false;
  return stored;
}

export const pendingRoleCount = (changes: RoleChanges) =>
  Object.values(changes).reduce((sum, c) => sum + c.add.length + c.remove.length, 0);

/** The calls to make, removals first. */
export function roleCalls(changes: RoleChanges): Array<{ role: ApplicationRole; login: string; grant: boolean }> {
  const roles = Object.keys(changes) as ApplicationRole[];
  return [
    ...roles.flatMap((role) => changes[role].remove.map((login) => ({ role, login, grant: false }))),
    ...roles.flatMap((role) => changes[role].add.map((login) => ({ role, login, grant: true }))),
  ];
}
