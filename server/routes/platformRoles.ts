import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { AuthenticatedUserSchema } from '../../src/contract/accounts.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { ORIGINAL_ADMIN_ROLE, RoleParamsSchema, RoleQuerySchema } from '../../src/contract/platformRoles.ts';
import { rolesOf, rolesOfEveryone } from '../services/applicationAccess.ts';
import { changeRole, listUsersForAdmin } from '../services/platformRoles.ts';
import { toAuthenticatedUser } from '../services/userViews.ts';

const patternsOf = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export const platformRoleRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/authorizationForAdmin',
    {
      schema: {
        tags: ['roles'],
        summary: 'Every account with its roles (platform administrator only).',
        response: { 200: Type.Array(AuthenticatedUserSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const users = await listUsersForAdmin(ctx, requireUser(request));
      const roles = await rolesOfEveryone(ctx.db);
      return users.map((user) => toAuthenticatedUser(user, Object.fromEntries(roles.get(user.id) ?? [])));
    },
  );

  for (const method of ['PUT', 'DELETE'] as const) {
    app.route({
      method,
      url: '/authorization/:role',
      schema: {
        tags: ['roles'],
        summary:
          method === 'PUT'
            ? 'Grants a role: terrainAdmin (or openAdomAdmin, the original’s name), applicationCreator (with applicationPattern), applicationManager or userManager (with applicationNameOrId).'
            : 'Revokes a role (same parameters as the grant).',
        params: RoleParamsSchema,
        querystring: RoleQuerySchema,
        response: { 200: AuthenticatedUserSchema, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const caller = requireUser(request);
        const user = await changeRole(
          ctx,
          caller,
          {
            role: request.params.role === ORIGINAL_ADMIN_ROLE ? 'terrainAdmin' : request.params.role,
            userIdOrLogin: request.query.userIdOrLogin,
            applicationPatterns: patternsOf(request.query.applicationPattern),
            applicationNameOrId: request.query.applicationNameOrId,
          },
          method === 'PUT',
        );
        return toAuthenticatedUser(user, Object.fromEntries(await rolesOf(ctx.db, user.id)));
      },
    });
  }
};
