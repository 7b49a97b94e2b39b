import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import { findApplication } from '../services/applications.ts';
import { grantable, listAuthorizations, requireAuthorizationManager, revokeAuthorization, rightsOf, saveAuthorization, usersOfApplication } from '../services/authorizations.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';

const NameParam = Type.Object({ name: Type.String({ maxLength: 100 }) });
const IdParams = Type.Object({ name: Type.String({ maxLength: 100 }), id: Type.String({ maxLength: 100 }) });
const Json = Type.Object({}, { additionalProperties: true });
export const Restriction = Type.Object(
  {
    operationTypes: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 })),
    requiredAuthorizations: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 5000 })]))),
    timeScope: Type.Optional(
      Type.Union([Type.Null(), Type.Object({ format: Type.Optional(Type.String()), fromDay: Type.Optional(Type.Union([Type.String(), Type.Null()])), toDay: Type.Optional(Type.Union([Type.String(), Type.Null()])) })]),
    ),
    fromDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    toDay: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);
const AuthorizationBody = Type.Object(
  {
    uuid: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    name: Type.String({ maxLength: 200 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    usersId: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 10_000 }),
    authorizationForAll: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 }))),
    authorizationsWithRestriction: Type.Optional(Type.Record(Type.String(), Type.Union([Restriction, Type.Array(Restriction, { maxItems: 1000 })]))),
  },
  {
    description:
      'uuid null creates, a uuid updates. usersId holds user ids or logins, or "_public_" for a public authorization (reading only). ' +
      'authorizationForAll: data → operations on every row; authorizationsWithRestriction: data → {operationTypes, requiredAuthorizations: {scope component: [hierarchical keys]}, timeScope: {fromDay, toDay}}.',
  },
);

export const authorizationRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/grantable',
    {
      schema: {
        tags: ['rights'],
        summary: 'What may be granted: users (with _public_), scope trees per data, columns per data, the caller’s own rights, public authorizations.',
        params: NameParam,
        response: { 200: Json, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => grantable(ctx, requireUser(request), await findApplication(ctx, request.params.name), mailLanguage(request.headers['accept-language'])),
  );

  app.get(
    '/applications/:name/authorization',
    {
      schema: { tags: ['rights'], summary: 'Every authorization of the application (managers and user managers).', params: NameParam, response: { 200: Json, ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const roles = await requireAuthorizationManager(ctx, user, application);
      return { authorizationResults: await listAuthorizations(ctx, application), authorizationsForUser: { isAdministrator: roles.manager, userManager: roles.userManager } };
    },
  );

  app.get(
    '/applications/:name/authorization/:id',
    { schema: { tags: ['rights'], summary: 'One authorization.', params: IdParams, response: { 200: Json, ...errorResponses(401, 403, 404) } } },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      await requireAuthorizationManager(ctx, user, application);
      if (!/^[0-9a-f-]{36}$/i.test(request.params.id)) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: request.params.id });
      const [found] = await listAuthorizations(ctx, application, request.params.id);
      if (!found) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: request.params.id });
      return found;
    },
  );

  app.post(
    '/applications/:name/authorization',
    {
      schema: {
        tags: ['rights'],
        summary: 'Creates or updates an authorization; refused (4xx with a code) when invalid or beyond what the caller may give.',
        params: NameParam,
        body: AuthorizationBody,
        response: { 201: Type.Object({ authorizationId: Type.String() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const id = await saveAuthorization(ctx, user, application, request.body);
      return reply.code(201).header('Location', `/api/v1/applications/${application.name}/authorization/${id}`).send({ authorizationId: id });
    },
  );

  app.delete(
    '/applications/:name/authorization/:id',
    {
      schema: { tags: ['rights'], summary: 'Revokes an authorization (application managers).', params: IdParams, response: { 200: Type.Object({ authorizationId: Type.String() }), ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      await revokeAuthorization(ctx, user, application, request.params.id);
      return { authorizationId: request.params.id };
    },
  );

  app.get(
    '/applications/:name/authorizationAdminForApplication',
    {
      schema: { tags: ['rights'], summary: 'Active users with their manager and user-manager roles on the application.', params: NameParam, response: { 200: Type.Array(Json), ...errorResponses(401, 403, 404) } },
    },
    async (request) => usersOfApplication(ctx, requireUser(request), await findApplication(ctx, request.params.name)),
  );

  app.get(
    '/applications/:name/rights',
    {
      schema: {
        tags: ['rights'],
        summary: 'The caller’s own rights on the application (visitors get the public ones).',
        params: NameParam,
        response: { 200: Json, ...errorResponses(404) },
      },
    },
    async (request) => {
      const application = await findApplication(ctx, request.params.name);
      const rights = await rightsOf(ctx, request.auth?.user ?? null, application);
      const operations = ['depot', 'publication', 'delete', 'extraction', 'admin'] as const;
      return {
        isAdministrator: rights.manager,
        data: Object.fromEntries(
          application.model.data.map((entry) => [entry.name, Object.fromEntries(operations.map((op) => [op, rights.all(op, entry.name) ? 'all' : rights.any(op, entry.name) ? 'some' : 'none']))]),
        ),
      };
    },
  );
};
