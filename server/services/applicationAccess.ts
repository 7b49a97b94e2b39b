import type { Kysely } from 'kysely';
import { checkApplicationName, matchesCreatorPattern } from '../../src/domain/applications/applicationName.ts';
import type { ApplicationRole } from '../../src/domain/applications/applicationView.ts';
import type { Schema, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

/** The roles a user holds, per application id (not of an application a restore is still writing: it is hidden). */
export async function rolesOf(db: Kysely<Schema>, userId: string): Promise<Map<string, ApplicationRole[]>> {
  const rows = await db
    .selectFrom('application_roles')
    .innerJoin('applications', 'applications.id', 'application_roles.application_id')
    .select(['application_roles.application_id', 'application_roles.role'])
    .where('application_roles.user_id', '=', userId)
    .where('applications.restoring_since', 'is', null)
    .execute();
  const roles = new Map<string, ApplicationRole[]>();
  for (const row of rows) roles.set(row.application_id, [...(roles.get(row.application_id) ?? []), row.role]);
  return roles;
}

/**
 * The roles of every user at once (user id → application id → roles), as {@link rolesOf} gives one user's: the
 * platform administrator's list of accounts reads them in one statement, not one per account.
 */
export async function rolesOfEveryone(db: Kysely<Schema>): Promise<Map<string, Map<string, ApplicationRole[]>>> {
  const rows = await db
    .selectFrom('application_roles')
    .innerJoin('applications', 'applications.id', 'application_roles.application_id')
    .select(['application_roles.user_id', 'application_roles.application_id', 'application_roles.role'])
    .where('applications.restoring_since', 'is', null)
    .execute();
  const everyone = new Map<string, Map<string, ApplicationRole[]>>();
  for (const row of rows) {
    const roles = everyone.get(row.user_id) ?? new Map<string, ApplicationRole[]>();
    roles.set(row.application_id, [...(roles.get(row.application_id) ?? []), row.role]);
    everyone.set(row.user_id, roles);
  }
  return everyone;
}

export const isCreatorOf = (user: UserRow, applicationName: string) =>
  matchesCreatorPattern(applicationName, user.creator_patterns);

/** Platform administrator, manager of the application, or creator whose pattern covers its name. */
export function administers(user: UserRow, application: { name: string }, roles: readonly ApplicationRole[]): boolean {
  return user.terrain_admin || roles.includes('applicationManager') || isCreatorOf(user, application.name);
}

/** Refuses a name that breaks the rule or that the user may not create: before any work starts. */
export function requireCreatableName(user: UserRow, name: string) {
  const problem = checkApplicationName(name, { isPlatformAdmin: user.terrain_admin, patterns: user.creator_patterns });
  if (problem === 'badNameWithRight') throw new Refusal('NO_RIGHT_FOR_APPLICATION_CREATION', { name });
  if (problem) throw new Refusal('BAD_APPLICATION_NAME', { name, problem });
}
