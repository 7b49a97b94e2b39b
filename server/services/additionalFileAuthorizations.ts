import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  FILE_OPERATIONS,
  normalizeFileAuthorization,
  type FileAuthorizationRequest,
  type FileRights,
} from '../../src/domain/additionalFiles/authorization.ts';
import type { FileAuthorization, FileAuthorizations, UserFileRights } from '../../src/contract/additionalFiles.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { fileAccessOf, fileRightsHeld, holds, type FileAccess } from './additionalFileRights.ts';
import { requireSignedCharter } from './charter.ts';
import { namedAccounts } from './namedAccounts.ts';
import { personShownTo } from './userViews.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { applying } from '../db/appliedWork.ts';

/**
 * Additional-file authorizations (spec §6, api.md §12.5): named grants of operations per file type to users.
 * Application managers give any of them; anyone else gives rights only on the types they hold `admin` on, and
 * sees only the authorizations touching those types. User managers see the list (it is their screen for data
 * rights) but give nothing more than their own `admin` types.
 */
const typesOf = (rights: FileRights) => new Set(FILE_OPERATIONS.flatMap((operation) => rights[operation] ?? []));

/** The file types the caller may give rights on. */
const grantableTypes = (access: FileAccess, application: ApplicationRow) =>
  application.model.additionalFiles.map((t) => t.name).filter((type) => holds(access, 'admin', type));

async function requireFileRightsManager(ctx: ServerContext, user: UserRow, application: ApplicationRow) {
  await requireSignedCharter(ctx, user, application);
  const access = await fileAccessOf(ctx, user, application);
  const adminTypes = grantableTypes(access, application);
  if (!access.manager && !access.userManager && adminTypes.length === 0)
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS', { name: application.name });
  return { access, adminTypes: new Set(adminTypes) };
}

/** The authorization concerns the caller: a manager sees all; others those naming a type they administer. */
const concerns = (access: FileAccess, adminTypes: ReadonlySet<string>, rights: FileRights) =>
  access.manager || [...typesOf(rights)].some((type) => adminTypes.has(type));

/** The list (api.md §12.5): `authorizationResults`, the users one may choose, and the caller's own standing. */
export async function listFileAuthorizations(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  filters: { authorizationId?: string; userId?: string },
): Promise<FileAuthorizations> {
  const { access, adminTypes } = await requireFileRightsManager(ctx, user, application);
  let query = ctx.db
    .selectFrom('additional_file_authorizations')
    .selectAll()
    .where('application_id', '=', application.id)
    .orderBy(sql`lower(name)`)
    .orderBy('id');
  if (filters.authorizationId) {
    if (!isUuid(filters.authorizationId)) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: filters.authorizationId });
    query = query.where('id', '=', filters.authorizationId);
  }
  if (filters.userId) {
    const userId = filters.userId;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('additional_file_authorization_users as au')
          .innerJoin('users as u', 'u.id', 'au.user_id')
          .select('au.user_id')
          .whereRef('au.authorization_id', '=', 'additional_file_authorizations.id')
          .where((inner) =>
            inner.or([inner(sql`u.id::text`, '=', userId), inner(sql`lower(u.login)`, '=', userId.toLowerCase())]),
          ),
      ),
    );
  }
  const rows = (await query.execute()).filter((row) => concerns(access, adminTypes, row.rights));
  if (filters.authorizationId && rows.length === 0)
    throw new Refusal('NO_SUCH_AUTHORIZATION', { id: filters.authorizationId });
  const members = rows.length
    ? await ctx.db
        .selectFrom('additional_file_authorization_users as au')
        .innerJoin('users as u', 'u.id', 'au.user_id')
        .select(['au.authorization_id', 'u.id', 'u.login', 'u.email'])
        .where(
          'au.authorization_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy(sql`lower(u.login)`)
        .execute()
    : [];
  const users = await ctx.db
    .selectFrom('users')
    .select(['id', 'login', 'email'])
    .where('state', '=', 'active')
    .orderBy(sql`lower(login)`)
    .execute();
  // Each authorization's people, gathered once (searching every link for every authorization grew as their product).
  const peopleOf = new Map<string, FileAuthorization['users']>();
  for (const { authorization_id, ...person } of members) {
    const shown = personShownTo(user, person);
    const people = peopleOf.get(authorization_id);
    if (people) people.push(shown);
    else peopleOf.set(authorization_id, [shown]);
  }
  const authorizationResults: FileAuthorization[] = rows.map((row) => ({
    uuid: row.id,
    name: row.name,
    users: peopleOf.get(row.id) ?? [],
    additionalFiles: row.rights,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
  return {
    authorizationResults,
    users: users.map((person) => personShownTo(user, person)),
    authorizationsForUser: {
      isAdministrator: access.manager,
      userManager: access.userManager,
      adminTypes: [...adminTypes],
    },
  };
}

/** Creates (uuid null) or updates an additional-file authorization; answers its id. */
export async function saveFileAuthorization(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  request: FileAuthorizationRequest,
): Promise<{ id: string; created: boolean }> {
  const { access, adminTypes } = await requireFileRightsManager(ctx, user, application);
  const normalized = normalizeFileAuthorization(application.model.additionalFiles, request);
  if (!normalized.ok) throw new InvalidInput(normalized.problems[0], { problems: normalized.problems });
  const beyond = (types: Set<string>) => [...types].filter((type) => !access.manager && !adminTypes.has(type));
  const refused = beyond(typesOf(normalized.rights));
  if (refused.length)
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS', { name: application.name, fileTypes: refused });

  const existing = request.uuid
    ? isUuid(request.uuid)
      ? await ctx.db
          .selectFrom('additional_file_authorizations')
          .selectAll()
          .where('id', '=', request.uuid)
          .where('application_id', '=', application.id)
          .executeTakeFirst()
      : undefined
    : undefined;
  if (request.uuid && !existing) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: request.uuid });
  // Editing may not take away what others gave on types the caller does not administer.
  if (existing && beyond(typesOf(existing.rights)).length)
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS', {
      name: application.name,
      fileTypes: beyond(typesOf(existing.rights)),
    });

  const named = request.usersId ?? [];
  const people = await namedAccounts(ctx.db, named, { activeOnly: true });

  const id = existing?.id ?? randomUUID();
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      if (existing) {
        await trx
          .updateTable('additional_file_authorizations')
          .set({ name: normalized.name, rights: JSON.stringify(normalized.rights), updated_at: new Date() })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('additional_file_authorization_users').where('authorization_id', '=', id).execute();
      } else {
        await trx
          .insertInto('additional_file_authorizations')
          .values({
            id,
            application_id: application.id,
            name: normalized.name,
            rights: JSON.stringify(normalized.rights),
            created_by: user.id,
          })
          .execute();
      }
      if (people.length)
        await sql`insert into additional_file_authorization_users (authorization_id, user_id)
        select ${id}::uuid, unnest(${people.map((person) => person.id)}::uuid[])`.execute(trx);
    }),
  );
  return { id, created: !existing };
}

/** Revokes an authorization: managers, or whoever administers every type it names. */
export async function revokeFileAuthorization(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  id: string,
) {
  const { access, adminTypes } = await requireFileRightsManager(ctx, user, application);
  const existing = isUuid(id)
    ? await ctx.db
        .selectFrom('additional_file_authorizations')
        .selectAll()
        .where('id', '=', id)
        .where('application_id', '=', application.id)
        .executeTakeFirst()
    : undefined;
  if (!existing || !concerns(access, adminTypes, existing.rights)) throw new Refusal('NO_SUCH_AUTHORIZATION', { id });
  const beyond = [...typesOf(existing.rights)].filter((type) => !access.manager && !adminTypes.has(type));
  if (beyond.length)
    throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILES_RIGHTS', { name: application.name, fileTypes: beyond });
  await ctx.db.deleteFrom('additional_file_authorizations').where('id', '=', id).execute();
}

/**
 * The additional-file rights of one user (api.md §12.5 `…/additionalFiles/authorization/{user|null}`): operation →
 * types. Anyone asks about themselves (`null`); asking about others is for those who manage file rights.
 */
export async function fileRightsOfUser(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  userLoginOrId: string,
): Promise<UserFileRights> {
  let target = caller;
  if (userLoginOrId !== 'null' && userLoginOrId !== caller.login && userLoginOrId !== caller.id) {
    await requireFileRightsManager(ctx, caller, application);
    const found = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where((eb) =>
        eb.or([eb(sql`lower(login)`, '=', userLoginOrId.toLowerCase()), eb(sql`id::text`, '=', userLoginOrId)]),
      )
      .executeTakeFirst();
    if (!found) throw new Refusal('UNKNOWN_USER', { users: [userLoginOrId] });
    target = found;
  }
  const access = await fileAccessOf(ctx, target, application);
  const byType = access.manager
    ? new Map(application.model.additionalFiles.map((t) => [t.name, new Set(FILE_OPERATIONS)]))
    : await fileRightsHeld(ctx, target.id, application.id);
  const additionalFiles: FileRights = {};
  for (const [type, operations] of [...byType].sort(([a], [b]) => a.localeCompare(b))) {
    for (const operation of FILE_OPERATIONS)
      if (operations.has(operation)) (additionalFiles[operation] ??= []).push(type);
  }
  return { userId: target.id, login: target.login, isAdministrator: access.manager, additionalFiles };
}
