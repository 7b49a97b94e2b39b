import type { AuthenticatedUser, StoredUser } from '../../src/domain/accounts/user.ts';
import type { AccountResult } from '../../src/contract/accounts.ts';
import type { UserRow } from '../db/schema.ts';

const iso = (date: Date) => date.toISOString();

/** The sign-in answer: the user, the creator patterns and the roles, never the password hash. */
export function toAuthenticatedUser(user: UserRow, applicationRoles: Record<string, string[]> = {}): AuthenticatedUser {
  const patterns = user.creator_patterns;
  const isCreator = patterns.length > 0;
  return {
    id: user.id,
    login: user.login,
    email: user.email,
    state: user.state,
    authorizedForApplicationCreation: isCreator || user.terrain_admin,
    terrainAdmin: user.terrain_admin,
    authorizations: patterns,
    chartes: user.chartes,
    currentUserRoles: {
      applicationRoles,
      userId: user.id,
      userLogin: user.login,
      isTerrainAdmin: user.terrain_admin,
      isApplicationCreator: isCreator,
      memberOf: [...(isCreator ? ['applicationCreator'] : []), ...(user.terrain_admin ? ['terrainAdmin'] : [])],
      isDataBaseSuper: false,
    },
  };
}

export function toStoredUser(user: UserRow): StoredUser {
  return {
    id: user.id,
    login: user.login,
    email: user.email,
    accountstate: user.state,
    pendingEmail: user.pending_email,
    terrainAdmin: user.terrain_admin,
    authorizations: user.creator_patterns,
    chartes: user.chartes,
    creationDate: iso(user.creation_date),
    updateDate: iso(user.update_date),
  };
}

/** What account modifications answer (the original's CreateUserResult). */
export function toAccountResult(user: UserRow): AccountResult {
  return { userId: user.id, login: user.login, email: user.email, accountState: user.state, chartes: user.chartes };
}

/**
 * Someone named in a list others read (users to choose, people of an authorization): by login, with their address
 * only for a platform administrator, or for themself. Staff of one application choose people by login; they would
 * otherwise read the address of every account of the platform (accounts audit).
 */
export function personShownTo<Person extends { id: string; login: string; email: string }>(
  viewer: Pick<UserRow, 'id' | 'terrain_admin'>,
  person: Person,
): Omit<Person, 'email'> & { email?: string } {
  const { email, ...rest } = person;
  return viewer.terrain_admin || person.id === viewer.id ? { ...rest, email } : rest;
}
