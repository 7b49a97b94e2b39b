import type { AuthenticatedUser } from '@/domain/accounts/user';
import type { PlatformRole } from '@/contract/platformRoles';
import { isValidCreatorPattern } from '@/domain/applications/applicationName';

/** Changes to one user's creator rights, relative to what the server holds. */
export interface UserChanges {
  admin?: boolean;
  added: string[];
  removed: string[];
}

export type PendingChanges = Record<string, UserChanges>;

const empty = (): UserChanges => ({ added: [], removed: [] });
const without = (list: string[], value: string) => list.filter((v) => v !== value);

function tidy(all: PendingChanges, login: string, next: UserChanges): PendingChanges {
  const rest = { ...all };
  if (next.admin === undefined && next.added.length === 0 && next.removed.length === 0) delete rest[login];
  else rest[login] = next;
  return rest;
}

/** Ticking back to the stored state cancels the change instead of recording a second one. */
export function toggleAdmin(all: PendingChanges, user: AuthenticatedUser, checked: boolean): PendingChanges {
  const current = all[user.login] ?? empty();
  return tidy(all, user.login, { ...current, admin: checked === user.terrainAdmin ? undefined : checked });
}

export function addPattern(all: PendingChanges, user: AuthenticatedUser, raw: string): PendingChanges {
  const pattern = raw.trim();
  if (pattern === '') return all;
  const current = all[user.login] ?? empty();
  if (current.removed.includes(pattern))
    return tidy(all, user.login, { ...current, removed: without(current.removed, pattern) });
  if (user.authorizations.includes(pattern) || current.added.includes(pattern)) return all;
  return tidy(all, user.login, { ...current, added: [...current.added, pattern] });
}

export function removePattern(all: PendingChanges, user: AuthenticatedUser, pattern: string): PendingChanges {
  const current = all[user.login] ?? empty();
  if (current.added.includes(pattern))
    return tidy(all, user.login, { ...current, added: without(current.added, pattern) });
  if (!user.authorizations.includes(pattern) || current.removed.includes(pattern)) return all;
  return tidy(all, user.login, { ...current, removed: [...current.removed, pattern] });
}

/** The patterns shown for a user: stored ones minus removals plus additions. */
export function shownPatterns(all: PendingChanges, user: AuthenticatedUser): string[] {
  const current = all[user.login] ?? empty();
  return [...user.authorizations.filter((p) => !current.removed.includes(p)), ...current.added];
}

export const shownAdmin = (all: PendingChanges, user: AuthenticatedUser) => all[user.login]?.admin ?? user.terrainAdmin;

export interface RoleRequest {
  grant: boolean;
  role: Extract<PlatformRole, 'terrainAdmin' | 'applicationCreator'>;
  login: string;
  patterns: string[];
}

/** The calls that apply the changes: removals first, so a pattern moved between users never collides. */
export function roleRequests(all: PendingChanges): RoleRequest[] {
  const requests: RoleRequest[] = [];
  for (const [login, change] of Object.entries(all)) {
    if (change.removed.length)
      requests.push({ grant: false, role: 'applicationCreator', login, patterns: change.removed });
    if (change.admin === false) requests.push({ grant: false, role: 'terrainAdmin', login, patterns: [] });
  }
  for (const [login, change] of Object.entries(all)) {
    if (change.added.length) requests.push({ grant: true, role: 'applicationCreator', login, patterns: change.added });
    if (change.admin === true) requests.push({ grant: true, role: 'terrainAdmin', login, patterns: [] });
  }
  return requests;
}

/** The added patterns the server would refuse, by login: none is sent while one is left. */
export function invalidPatterns(all: PendingChanges): Record<string, string[]> {
  const invalid: Record<string, string[]> = {};
  for (const [login, change] of Object.entries(all)) {
    const wrong = change.added.filter((pattern) => !isValidCreatorPattern(pattern));
    if (wrong.length > 0) invalid[login] = wrong;
  }
  return invalid;
}

/** The changes the given calls would have made: what is kept on the page when the server refuses them. */
export function changesOf(requests: readonly RoleRequest[]): PendingChanges {
  const all: PendingChanges = {};
  for (const request of requests) {
    const current = all[request.login] ?? empty();
    all[request.login] =
      request.role === 'terrainAdmin'
        ? { ...current, admin: request.grant }
        : request.grant
          ? { ...current, added: [...current.added, ...request.patterns] }
          : { ...current, removed: [...current.removed, ...request.patterns] };
  }
  return all;
}
