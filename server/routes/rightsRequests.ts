import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { NameParamsSchema } from '../../src/contract/authorizations.ts';
import {
  RequestOptionsSchema,
  RightsRequestBodySchema,
  RightsRequestListQuerySchema,
  RightsRequestListSchema,
  RightsRequestSavedSchema,
} from '../../src/contract/rightsRequests.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import { findApplication } from '../services/applications.ts';
import { listRightsRequests, readRequestQuery, requestOptions, saveRightsRequest } from '../services/rightsRequests.ts';
import { listedWhole, wholeRightsRequestsList } from '../services/rightsRequestsWhole.ts';

/** A list written as it is read: JSON text the serializer does not touch. */
function replyWithJsonText(reply: FastifyReply, text: AsyncIterable<string>) {
  return reply.header('Content-Type', 'application/json; charset=utf-8').send(Readable.from(text));
}

export const rightsRequestRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/rightsRequest',
    {
      schema: {
        tags: ['rights requests'],
        summary:
          'Rights requests, newest first: a user sees their own, managers and user managers see all. {users, total, rightsRequests, description}.',
        params: NameParamsSchema,
        querystring: RightsRequestListQuerySchema,
        response: { 200: RightsRequestListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const query = readRequestQuery(request.query.params);
      const locale = mailLanguage(request.headers['accept-language']);
      if (!listedWhole(query)) return listRightsRequests(ctx, user, application, query, locale);
      const text = await wholeRightsRequestsList(ctx, user, application, query, locale);
      return replyWithJsonText(reply, text);
    },
  );

  app.get(
    '/applications/:name/rightsRequest/options',
    {
      schema: {
        tags: ['rights requests'],
        summary:
          'What the request form needs, for any signed-in user who accepted the charter when one is due: scope trees, columns per data, choices of reference fields, the caller’s own rights.',
        params: NameParamsSchema,
        response: { 200: RequestOptionsSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      requestOptions(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        mailLanguage(request.headers['accept-language']),
      ),
  );

  app.post(
    '/applications/:name/rightsRequest',
    {
      schema: {
        tags: ['rights requests'],
        summary:
          'Creates (201) or updates (200) a rights request; managers grant or close it with setted: true. Refusals are 4xx with a code.',
        params: NameParamsSchema,
        body: RightsRequestBodySchema,
        response: {
          200: RightsRequestSavedSchema,
          201: RightsRequestSavedSchema,
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const saved = await saveRightsRequest(
        ctx,
        user,
        application,
        request.body,
        mailLanguage(request.headers['accept-language']),
      );
      const body = { id: saved.id, status: saved.status, authorizationId: saved.authorizationId };
      return saved.created ? reply.code(201).send(body) : reply.code(200).send(body);
    },
  );
};
