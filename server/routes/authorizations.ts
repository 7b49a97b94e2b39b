import { isUuid } from '../../src/domain/text/uuid.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Operation } from '../../src/domain/rights/operations.ts';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import {
  ApplicationUserSchema,
  AuthorizationBodySchema,
  AuthorizationIdSchema,
  AuthorizationListSchema,
  AuthorizationParamsSchema,
  AuthorizationViewSchema,
  GrantableSchema,
  NameParamsSchema,
  OwnRightsSchema,
  ScopeNodesPageSchema,
  ScopeNodesParamsSchema,
  ScopeNodesQuerySchema,
  type OwnRights,
  type RightExtent,
} from '../../src/contract/authorizations.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import { findApplication } from '../services/applications.ts';
import {
  grantable,
  listAuthorizations,
  requireAuthorizationManager,
  revokeAuthorization,
  rightsOf,
  saveAuthorization,
  usersOfApplication,
} from '../services/authorizations.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { scopeNodes } from '../services/scopeNodes.ts';

export const authorizationRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/grantable',
    {
      schema: {
        tags: ['rights'],
        summary:
          'What may be granted: users (with _public_), scope trees per data, columns per data, the caller’s own rights, public authorizations.',
        params: NameParamsSchema,
        response: { 200: GrantableSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      grantable(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        mailLanguage(request.headers['accept-language']),
      ),
  );

  app.get(
    '/applications/:name/scopeNodes/:reference',
    {
      schema: {
        tags: ['rights'],
        summary:
          'A page of a scope tree larger than SCOPE_TREE_WHOLE_MAX rows, which grantable, the rights-request options and the ' +
          'files overview send a first page of: the first level or the children of `parent` (`after` the last node ' +
          'shown, or `offset`; `limit` ≤ 100), each node with its child count; or with `q`, at most 20 nodes each ' +
          'word of which begins a word of their label or code or of a row above them, with the labels of the rows ' +
          'above them. `use` names the answer it complements, whose read rule applies ' +
          '(grant: managers and user managers; request: the charter accepted; files: readers of additional files).',
        params: ScopeNodesParamsSchema,
        querystring: ScopeNodesQuerySchema,
        response: { 200: ScopeNodesPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      scopeNodes(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        request.params.reference,
        request.query,
        mailLanguage(request.headers['accept-language']),
      ),
  );

  app.get(
    '/applications/:name/authorization',
    {
      schema: {
        tags: ['rights'],
        summary: 'Every authorization of the application (managers and user managers).',
        params: NameParamsSchema,
        response: { 200: AuthorizationListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const roles = await requireAuthorizationManager(ctx, user, application);
      return {
        authorizationResults: await listAuthorizations(ctx, user, application),
        authorizationsForUser: { isAdministrator: roles.manager, userManager: roles.userManager },
      };
    },
  );

  app.get(
    '/applications/:name/authorization/:id',
    {
      schema: {
        tags: ['rights'],
        summary: 'One authorization.',
        params: AuthorizationParamsSchema,
        response: { 200: AuthorizationViewSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      await requireAuthorizationManager(ctx, user, application);
      if (!isUuid(request.params.id)) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: request.params.id });
      const [found] = await listAuthorizations(ctx, user, application, request.params.id);
      if (!found) throw new Refusal('NO_SUCH_AUTHORIZATION', { id: request.params.id });
      return found;
    },
  );

  app.post(
    '/applications/:name/authorization',
    {
      schema: {
        tags: ['rights'],
        summary:
          'Creates or updates an authorization; refused (4xx with a code) when invalid or beyond what the caller may give.',
        params: NameParamsSchema,
        body: AuthorizationBodySchema,
        response: { 201: AuthorizationIdSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const id = await saveAuthorization(ctx, user, application, request.body);
      return reply
        .code(201)
        .header('Location', `/api/v1/applications/${application.name}/authorization/${id}`)
        .send({ authorizationId: id });
    },
  );

  app.delete(
    '/applications/:name/authorization/:id',
    {
      schema: {
        tags: ['rights'],
        summary: 'Revokes an authorization (application managers).',
        params: AuthorizationParamsSchema,
        response: { 200: AuthorizationIdSchema, ...errorResponses(401, 403, 404) },
      },
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
      schema: {
        tags: ['rights'],
        summary: 'Active users with their manager and user-manager roles on the application.',
        params: NameParamsSchema,
        response: { 200: Type.Array(ApplicationUserSchema), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => usersOfApplication(ctx, requireUser(request), await findApplication(ctx, request.params.name)),
  );

  app.get(
    '/applications/:name/rights',
    {
      schema: {
        tags: ['rights'],
        summary: 'The caller’s own rights on the application (visitors get the public ones).',
        params: NameParamsSchema,
        response: { 200: OwnRightsSchema, ...errorResponses(404) },
      },
    },
    async (request): Promise<OwnRights> => {
      const application = await findApplication(ctx, request.params.name);
      const rights = await rightsOf(ctx, request.auth?.user ?? null, application);
      const extent = (operation: Operation, dataName: string): RightExtent =>
        rights.all(operation, dataName) ? 'all' : rights.any(operation, dataName) ? 'some' : 'none';
      const extents = (dataName: string) => ({
        depot: extent('depot', dataName),
        publication: extent('publication', dataName),
        delete: extent('delete', dataName),
        extraction: extent('extraction', dataName),
        admin: extent('admin', dataName),
      });
      return {
        isAdministrator: rights.manager,
        data: Object.fromEntries(application.model.data.map((entry) => [entry.name, extents(entry.name)])),
      };
    },
  );
};
