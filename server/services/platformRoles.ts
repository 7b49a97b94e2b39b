import { sql, type Kysely } from 'kysely';
import { isValidCreatorPattern, platformAdminPatterns } from '../../src/domain/applications/applicationName.ts';
import type { ApplicationRole } from '../../src/domain/applications/applicationView.ts';
import type { PlatformRole } from '../../src/contract/platformRoles.ts';
import type { ServerContext } from '../context.ts';
import type { Schema, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { findUserByIdOrLogin } from './accounts.ts';
import { administers, rolesOf } from './applicationAccess.ts';
import { raiseRightsVersion } from './authorizations.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { applying } from '../db/appliedWork.ts';

function requireAdmin(caller: UserRow) {
  if (!caller.terrain_admin) throw new Refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION');
}

export async function listUsersForAdmin(ctx: ServerContext, caller: UserRow) {
  requireAdmin(caller);
  return ctx.db
    .selectFrom('users')
    .selectAll()
    .orderBy(sql`lower(login)`)
    .execute();
}

interface RoleChange {
  role: PlatformRole;
  userIdOrLogin: string;
  applicationPatterns: string[];
  applicationNameOrId?: string;
}

/**
 * Grants (`grant`) or revokes a role. terrainAdmin sets the flag and the every-application pattern;
 * applicationCreator adds or removes name patterns; the per-application roles need the application.
 */
export async function changeRole(
  ctx: ServerContext,
  caller: UserRow,
  change: RoleChange,
  grant: boolean,
): Promise<UserRow> {
  const target = await findUserByIdOrLogin(ctx, change.userIdOrLogin);
  if (!target) throw new Refusal('UNKNOWN_USER', { user: change.userIdOrLogin });

  if (change.role === 'applicationManager' || change.role === 'userManager') {
    return changeApplicationRole(ctx, caller, target, change.role, change.applicationNameOrId, grant);
  }
  requireAdmin(caller);
  if (change.role === 'terrainAdmin' && !grant && target.id === caller.id) throw new Refusal('CANT_SELF_REVOKE_ADMIN');
  for (const pattern of change.applicationPatterns) {
    if (!isValidCreatorPattern(pattern)) throw new Refusal('BAD_APPLICATION_PATTERN', { pattern });
  }
  const patterns = new Set(target.creator_patterns);
  for (const pattern of change.applicationPatterns) {
    if (grant) patterns.add(pattern);
    else patterns.delete(pattern);
  }
  const changed =
    change.role === 'terrainAdmin' ? platformAdminPatterns(target.creator_patterns, grant) : [...patterns];
  const update = (db: Kysely<Schema>) =>
    db
      .updateTable('users')
      .set({
        creator_patterns: JSON.stringify(changed),
        ...(change.role === 'terrainAdmin' ? { terrain_admin: grant } : {}),
        update_date: new Date(),
      })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  if (change.role !== 'terrainAdmin') return update(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    // Two administrators revoking each other at once both passed the check above, read with their sessions, and
    // left the platform with none: the flags are locked, and whoever comes second is no longer an administrator.
    const admins = await trx.selectFrom('users').select('id').where('terrain_admin', '=', true).forUpdate().execute();
    if (!admins.some((admin) => admin.id === caller.id)) throw new Refusal('TERRAIN_ADMIN_REQUIRED_FOR_OPERATION');
    return update(trx);
  });
}

async function changeApplicationRole(
  ctx: ServerContext,
  caller: UserRow,
  target: UserRow,
  role: ApplicationRole,
  nameOrId: string | undefined,
  grant: boolean,
) {
  if (!nameOrId) throw new Refusal('MISSING_APPLICATION', { role });
  const application = await ctx.db
    .selectFrom('applications')
    .select(['id', 'name'])
    .where((eb) => eb.or([eb('name', '=', nameOrId), ...(isUuid(nameOrId) ? [eb('id', '=', nameOrId)] : [])]))
    .where('restoring_since', 'is', null)
    .executeTakeFirst();
  if (!application) throw new Refusal('NO_SUCH_APPLICATION', { name: nameOrId });
  // Whoever administers the application (its managers, a creator whose pattern covers its name, platform
  // administrators) gives and takes its roles.
  const callerRoles = (await rolesOf(ctx.db, caller.id)).get(application.id) ?? [];
  if (!administers(caller, application, callerRoles))
    throw new Refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: application.name });
  if (!grant && !caller.terrain_admin && target.id === caller.id)
    throw new Refusal('CANT_SELF_REVOKE_APPLICATION_ROLE', { role });
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      if (grant) {
        await trx
          .insertInto('application_roles')
          .values({ application_id: application.id, user_id: target.id, role })
          .onConflict((oc) => oc.doNothing())
          .execute();
      } else {
        await trx
          .deleteFrom('application_roles')
          .where('application_id', '=', application.id)
          .where('user_id', '=', target.id)
          .where('role', '=', role)
          .execute();
      }
      await raiseRightsVersion(trx, application.id);
    }),
  );
  return target;
}
