import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { RestrictionSchema } from '../../src/contract/authorizations.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import { findApplication } from '../services/applications.ts';
import { listRightsRequests, readRequestQuery, requestOptions, saveRightsRequest } from '../services/rightsRequests.ts';

const NameParam = Type.Object({ name: Type.String({ maxLength: 100 }) });
const Json = Type.Object({}, { additionalProperties: true });
const ListQuery = Type.Object({
  params: Type.Optional(
    Type.String({ maxLength: 20_000, description: 'JSON: {uuids: [id], setted: null|true|false, fieldFilters: [{field, filter, isRegExp}], search, offset, limit}' }),
  ),
});
const RequestBody = Type.Object(
  {
    id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    fields: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.Union([Type.String({ maxLength: 2000 }), Type.Number(), Type.Boolean(), Type.Null()]))),
    rightsRequest: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object({
          name: Type.Optional(Type.String({ maxLength: 200 })),
          authorizationForAll: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 10 }))),
          authorizationsWithRestriction: Type.Optional(Type.Record(Type.String(), Type.Union([RestrictionSchema, Type.Array(RestrictionSchema, { maxItems: 1000 })]))),
        }),
      ]),
    ),
    setted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    comment: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
  },
  {
    description:
      'id null creates a request for the caller, an id updates an open one (its requester, or a manager). fields: values of OA_rightsRequest’s form; ' +
      'rightsRequest: the rights asked for, as an authorization (reading only); comment: 3 to 255 characters. A manager or user manager ' +
      'sending setted: true treats it: with rights (and optionally the authorization’s name), an authorization is created for the requester ' +
      'within what the manager may give; with none, the request is closed. comment is then the treatment’s comment.',
  },
);
const Saved = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('open'), Type.Literal('granted'), Type.Literal('closed')]),
  authorizationId: Type.Union([Type.String(), Type.Null()]),
});

export const rightsRequestRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/rightsRequest',
    {
      schema: {
        tags: ['rights requests'],
        summary: 'Rights requests, newest first: a user sees their own, managers and user managers see all. {users, total, rightsRequests, description}.',
        params: NameParam,
        querystring: ListQuery,
        response: { 200: Json, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => listRightsRequests(ctx, requireUser(request), await findApplication(ctx, request.params.name), readRequestQuery(request.query.params)),
  );

  app.get(
    '/applications/:name/rightsRequest/options',
    {
      schema: {
        tags: ['rights requests'],
        summary: 'What the request form needs, for any signed-in user who accepted the charter when one is due: scope trees, columns per data, choices of reference fields, the caller’s own rights.',
        params: NameParam,
        response: { 200: Json, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => requestOptions(ctx, requireUser(request), await findApplication(ctx, request.params.name), mailLanguage(request.headers['accept-language'])),
  );

  app.post(
    '/applications/:name/rightsRequest',
    {
      schema: {
        tags: ['rights requests'],
        summary: 'Creates (201) or updates (200) a rights request; managers grant or close it with setted: true. Refusals are 4xx with a code.',
        params: NameParam,
        body: RequestBody,
        response: { 200: Saved, 201: Saved, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const saved = await saveRightsRequest(ctx, user, application, request.body, mailLanguage(request.headers['accept-language']));
      const body = { id: saved.id, status: saved.status, authorizationId: saved.authorizationId };
      return saved.created ? reply.code(201).send(body) : reply.code(200).send(body);
    },
  );
};
