import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { administers, rolesOf } from './applicationAccess.ts';

/** The caller's management roles on an application. */
export async function managementRoles(ctx: ServerContext, user: UserRow, application: ApplicationRow) {
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  return { manager: administers(user, application, roles), userManager: roles.includes('userManager') };
}

/** Managers and user managers see and edit authorizations; only managers revoke them. */
export async function requireAuthorizationManager(ctx: ServerContext, user: UserRow, application: ApplicationRow) {
  const roles = await managementRoles(ctx, user, application);
  if (!roles.manager && !roles.userManager)
    throw new Refusal('NO_RIGHT_FOR_SET_RIGHTS_APPLICATION', { name: application.name });
  return roles;
}
