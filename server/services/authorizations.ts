import { isUuid } from '../../src/domain/text/uuid.ts';
import { refuseUnknownScopeKeys } from './scopeKeysCheck.ts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { Rights } from '../../src/domain/rights/access.ts';
import {
  PUBLIC_USER,
  normalizeAuthorization,
  type AuthorizationRequest,
  type AuthorizationRules,
} from '../../src/domain/rights/authorization.ts';
import { operationColumns } from '../../src/domain/rights/operations.ts';
import type { ApplicationUser, AuthorizationView, Grantable } from '../../src/contract/authorizations.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, Schema, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { administers, rolesOf } from './applicationAccess.ts';
import { managementRoles, requireAuthorizationManager } from './authorizationManagers.ts';
import { KeptResults } from './keptResults.ts';
import { referenceScopesOf } from './scopeTrees.ts';
import { namedAccounts } from './namedAccounts.ts';
import { personShownTo } from './userViews.ts';
import { applying } from '../db/appliedWork.ts';

export { requireAuthorizationManager };

/**
 * Rights already worked out, per application rights version: every change to an application's authorizations or
 * roles raises its version (`raiseRightsVersion`, in the changing transaction), and the caller's own flags are in
 * the key, so kept rights never outlive a change. Each process keeps its own.
 */
const keptRights = new KeptResults<Rights>(5000);

/** The rights of a caller (or of a visitor, when `user` is null) on one application. */
export async function rightsOf(
  ctx: ServerContext,
  user: UserRow | null,
  application: Pick<ApplicationRow, 'id' | 'name'> & Partial<Pick<ApplicationRow, 'rights_version'>>,
): Promise<Rights> {
  const key =
    application.rights_version === undefined
      ? undefined
      : JSON.stringify([
          application.id,
          application.name,
          String(application.rights_version),
          user ? [user.id, user.terrain_admin, user.creator_patterns] : null,
        ]);
  return key === undefined
    ? workOutRights(ctx, user, application)
    : keptRights.keep(key, () => workOutRights(ctx, user, application));
}

async function workOutRights(
  ctx: ServerContext,
  user: UserRow | null,
  application: Pick<ApplicationRow, 'id' | 'name'>,
): Promise<Rights> {
  if (user) {
    const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
    if (administers(user, application, roles)) return new Rights(true, []);
  }
  return new Rights(
    false,
    await rulesFor(ctx, [application.id], user?.id ?? null).then((rules) => rules.get(application.id) ?? []),
  );
}

/** Marks a change to the application's authorizations or roles (inside the transaction that makes it). */
export async function raiseRightsVersion(db: Kysely<Schema>, applicationId: string): Promise<void> {
  await db
    .updateTable('applications')
    .set((eb) => ({ rights_version: eb('rights_version', '+', 1) }))
    .where('id', '=', applicationId)
    .execute();
}

/** Public rules and the user's own, per application. */
export async function rulesFor(
  ctx: ServerContext,
  applicationIds: string[],
  userId: string | null,
): Promise<Map<string, AuthorizationRules[]>> {
  const rules = new Map<string, AuthorizationRules[]>(applicationIds.map((id) => [id, []]));
  if (applicationIds.length === 0) return rules;
  const rows = await ctx.db
    .selectFrom('authorizations as a')
    .select(['a.application_id', 'a.rules'])
    .where('a.application_id', 'in', applicationIds)
    .where((eb) =>
      eb.or([
        eb('a.is_public', '=', true),
        ...(userId
          ? [
              eb.exists(
                eb
                  .selectFrom('authorization_users as u')
                  .select('u.user_id')
                  .whereRef('u.authorization_id', '=', 'a.id')
                  .where('u.user_id', '=', userId),
              ),
            ]
          : []),
      ]),
    )
    .execute();
  for (const row of rows) rules.get(row.application_id)!.push(row.rules);
  return rules;
}

function viewOf(
  row: {
    id: string;
    name: string;
    description: string;
    is_public: boolean;
    rules: AuthorizationRules;
    created_at: Date;
    updated_at: Date;
  },
  users: AuthorizationView['users'],
): AuthorizationView {
  return {
    uuid: row.id,
    name: row.name,
    description: row.description,
    isPublic: row.is_public,
    users,
    authorizationForAll: row.rules.forAll,
    authorizationsWithRestriction: Object.fromEntries(
      Object.entries(row.rules.restricted).map(([dataName, grants]) => [
        dataName,
        grants.map((grant) => ({
          operationTypes: grant.operations,
          requiredAuthorizations: grant.scopes,
          fromDay: grant.from,
          toDay: grant.to,
        })),
      ]),
    ),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listAuthorizations(
  ctx: ServerContext,
  viewer: UserRow,
  application: ApplicationRow,
  onlyId?: string,
): Promise<AuthorizationView[]> {
  let query = ctx.db
    .selectFrom('authorizations')
    .selectAll()
    .where('application_id', '=', application.id)
    .orderBy('name')
    // Authorizations of the same name in one order, read after read: the screen pages them.
    .orderBy('id');
  if (onlyId) query = query.where('id', '=', onlyId);
  const rows = await query.execute();
  const users = rows.length
    ? await ctx.db
        .selectFrom('authorization_users as au')
        .innerJoin('users as u', 'u.id', 'au.user_id')
        .select(['au.authorization_id', 'u.id', 'u.login', 'u.email'])
        .where(
          'au.authorization_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('u.login')
        .execute()
    : [];
  // Each authorization's people, gathered once (searching every link for every authorization grew as their product).
  const peopleOf = new Map<string, AuthorizationView['users']>();
  for (const { authorization_id, ...person } of users) {
    const shown = personShownTo(viewer, person);
    const people = peopleOf.get(authorization_id);
    if (people) people.push(shown);
    else peopleOf.set(authorization_id, [shown]);
  }
  return rows.map((row) => viewOf(row, peopleOf.get(row.id) ?? []));
}

/** An authorization checked and ready to write: its rules, its people, its id, and the rights of who writes it. */
export interface PreparedAuthorization {
  id: string;
  isNew: boolean;
  name: string;
  description: string;
  isPublic: boolean;
  rules: AuthorizationRules;
  userIds: string[];
  /** The caller's rights: an update may only replace rules the caller could have given (see {@link writeAuthorization}). */
  granter: Rights;
}

/**
 * Checks an authorization before anything is written: its rules are normalized (dependencies, public reading only,
 * unbounded restrictions), must grant something and stay within what the caller may give away; users are named by
 * id or login. Reads only, so that the write can join a caller's transaction (see {@link writeAuthorization}).
 */
export async function prepareAuthorization(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  request: AuthorizationRequest,
): Promise<PreparedAuthorization> {
  await requireAuthorizationManager(ctx, caller, application);
  const named = request.usersId ?? [];
  const isPublic = named.includes(PUBLIC_USER);
  const normalized = normalizeAuthorization(application.model, request, isPublic);
  if (!normalized.ok)
    throw new InvalidInput({ code: normalized.problems[0].code, params: {} }, { problems: normalized.problems });
  const rights = await rightsOf(ctx, caller, application);
  if (!rights.mayGrant(normalized.rules))
    throw new Refusal('NO_RIGHT_FOR_SET_RIGHTS_APPLICATION', { name: application.name });
  const before = request.uuid
    ? await ctx.db
        .selectFrom('authorizations')
        .select('rules')
        .where('id', '=', request.uuid)
        .where('application_id', '=', application.id)
        .executeTakeFirst()
    : undefined;
  await refuseUnknownScopeKeys(ctx.db, application.id, application.model, normalized.rules, before?.rules);
  const people = named.filter((u) => u !== PUBLIC_USER);
  const users = await namedAccounts(ctx.db, people, { activeOnly: false });
  if (!isPublic && users.length === 0) throw new Refusal('NO_AUTHORIZATION_USER');
  return {
    id: request.uuid ?? randomUUID(),
    isNew: !request.uuid,
    name: normalized.name,
    description: normalized.description,
    isPublic,
    rules: normalized.rules,
    userIds: users.map((u) => u.id),
    granter: rights,
  };
}

/**
 * Writes a prepared authorization inside the caller's transaction. An update replaces rules and people: it is
 * refused when the rules it replaces hold anything the caller could not give, as narrowing them or leaving people
 * out would take away what only someone else may give. They are read locked, in the writing transaction, so that
 * what is checked is what is replaced.
 */
export async function writeAuthorization(
  trx: Transaction<Schema>,
  caller: UserRow,
  application: ApplicationRow,
  prepared: PreparedAuthorization,
) {
  const { id, name, description, isPublic, rules } = prepared;
  if (!prepared.isNew) {
    const existing = await trx
      .selectFrom('authorizations')
      .select('rules')
      .where('id', '=', id)
      .where('application_id', '=', application.id)
      .forUpdate()
      .executeTakeFirst();
    if (!existing) throw new Refusal('NO_SUCH_AUTHORIZATION', { id });
    if (!prepared.granter.mayGrant(existing.rules))
      throw new Refusal('NO_RIGHT_FOR_AUTHORIZATION_CHANGE', { name: application.name, id });
    await trx
      .updateTable('authorizations')
      .set({ name, description, is_public: isPublic, rules: JSON.stringify(rules), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('authorization_users').where('authorization_id', '=', id).execute();
  } else {
    await trx
      .insertInto('authorizations')
      .values({
        id,
        application_id: application.id,
        name,
        description,
        is_public: isPublic,
        rules: JSON.stringify(rules),
        created_by: caller.id,
      })
      .execute();
  }
  if (prepared.userIds.length)
    await sql`insert into authorization_users (authorization_id, user_id)
      select ${id}::uuid, unnest(${prepared.userIds}::uuid[])`.execute(trx);
  await raiseRightsVersion(trx, application.id);
}

/** Creates or updates an authorization. */
export async function saveAuthorization(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  request: AuthorizationRequest,
): Promise<string> {
  const prepared = await prepareAuthorization(ctx, caller, application, request);
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      await writeAuthorization(trx, caller, application, prepared);
    }),
  );
  return prepared.id;
}

export async function revokeAuthorization(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  id: string,
) {
  const roles = await managementRoles(ctx, caller, application);
  if (!roles.manager) throw new Refusal('NO_RIGHT_FOR_DELETE_RIGHTS_APPLICATION', { name: application.name });
  if (!isUuid(id)) throw new Refusal('NO_SUCH_AUTHORIZATION', { id });
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      const deleted = await trx
        .deleteFrom('authorizations')
        .where('id', '=', id)
        .where('application_id', '=', application.id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) throw new Refusal('NO_SUCH_AUTHORIZATION', { id });
      await raiseRightsVersion(trx, application.id);
    }),
  );
}

/** What the rights screens need: users, scope trees, columns per data, the caller's own rights, public rights. */
export async function grantable(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  locale: string,
): Promise<Grantable> {
  await requireAuthorizationManager(ctx, caller, application);
  const model = application.model;
  const users = await ctx.db
    .selectFrom('users')
    .select(['id', 'login', 'email'])
    .where('state', '=', 'active')
    .orderBy(sql`lower(login)`)
    .execute();
  const referenceScopes = await referenceScopesOf(ctx, application, locale);
  const columnsDescription = Object.fromEntries(model.data.map((entry) => [entry.name, operationColumns(entry)]));
  const rights = await rightsOf(ctx, caller, application);
  const own = await rulesFor(ctx, [application.id], caller.id);
  const publicOnes = (await listAuthorizations(ctx, caller, application)).filter((a) => a.isPublic);
  return {
    users: [
      { id: PUBLIC_USER, label: PUBLIC_USER, login: PUBLIC_USER },
      ...users.map((u) => personShownTo(caller, { id: u.id, label: u.login, login: u.login, email: u.email })),
    ],
    referenceScopes,
    columnsDescription,
    authorizationsForUser: {
      isAdministrator: rights.manager,
      rules: rights.manager ? [] : (own.get(application.id) ?? []),
    },
    publicAuthorizations: publicOnes,
  };
}

/** Users of the platform with their roles on the application (the manager and user-manager table). */
export async function usersOfApplication(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
): Promise<ApplicationUser[]> {
  const roles = await requireAuthorizationManager(ctx, caller, application);
  const users = await ctx.db
    .selectFrom('users')
    .select(['id', 'login', 'email', 'state', 'chartes'])
    .where('state', '=', 'active')
    .orderBy(sql`lower(login)`)
    .execute();
  const granted = await ctx.db
    .selectFrom('application_roles')
    .select(['user_id', 'role'])
    .where('application_id', '=', application.id)
    .execute();
  return users.map((user) => ({
    applicationName: application.name,
    ...personShownTo(caller, { id: user.id, login: user.login, email: user.email }),
    state: user.state,
    // A user manager does not see who the managers are (the original answers null there).
    applicationManager: roles.manager
      ? granted.some((g) => g.user_id === user.id && g.role === 'applicationManager')
      : null,
    userManager: granted.some((g) => g.user_id === user.id && g.role === 'userManager'),
    isApplicationUser: user.chartes[application.id] !== undefined || granted.some((g) => g.user_id === user.id),
  }));
}
