import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ApplicationPart } from '../../src/domain/applications/applicationView.ts';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { failStream, openEventStream } from '../http/eventStream.ts';
import { readUpload } from '../http/readUpload.ts';
import {
  ApplicationPartsQuerySchema,
  ApplicationViewSchema,
  ConfigurationFileQuerySchema,
  ConfigurationUpdateResultSchema,
  ConfigurationUploadQuerySchema,
  type ApplicationPartsQuery,
} from '../../src/contract/applications.ts';
import { NameParamsSchema } from '../../src/contract/authorizations.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import {
  MAX_CONFIGURATION_BYTES,
  checkCreation,
  checkUpdate,
  configurationFile,
  getApplication,
  readComment,
  readUpdateOptions,
  requireConfigurationFile,
  streamApplications,
  streamCreation,
  streamUpdate,
  streamValidation,
  type RowCounter,
} from '../services/applications.ts';

interface Options {
  ctx: ServerContext;
  countRows?: RowCounter;
}

const partsOf = (filter: ApplicationPartsQuery['filter']) =>
  new Set<ApplicationPart>(filter === undefined ? [] : Array.isArray(filter) ? filter : [filter]);

const Streamed = {
  200: Type.String({
    description: 'NDJSON events: info, progress, error, warning, result (a stream without result failed).',
  }),
};
const multipartBody = {
  consumes: ['multipart/form-data'],
  description: 'Multipart form: `file` (.yaml, .yml or .zip, at most 20 MB) and optional `comment` (≤ 200 characters).',
};

export const applicationRoutes: FastifyPluginAsyncTypebox<Options> = async (app, { ctx, countRows }) => {
  app.get(
    '/applications',
    {
      schema: {
        tags: ['applications'],
        summary:
          'Every application, as the caller may see it, streamed as NDJSON (one result event each, with progress).',
        querystring: ApplicationPartsQuerySchema,
        response: { ...Streamed, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const events = openEventStream(reply);
      await streamApplications(ctx, user, partsOf(request.query.filter), events).catch((error: unknown) =>
        failStream(events, error, ctx.log),
      );
      return reply;
    },
  );

  app.get(
    '/applications/:name',
    {
      schema: {
        tags: ['applications'],
        summary: 'One application (by name or id), with the parts asked for and its stored versions.',
        params: NameParamsSchema,
        querystring: ApplicationPartsQuerySchema,
        response: { 200: ApplicationViewSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => getApplication(ctx, requireUser(request), request.params.name, partsOf(request.query.filter)),
  );

  for (const path of ['/validate-configuration', '/applications/validate-configuration']) {
    app.post(
      path,
      {
        schema: {
          tags: ['applications'],
          summary: 'Validates a configuration without storing anything (streamed).',
          ...multipartBody,
          response: { ...Streamed, ...errorResponses(400, 401, 413, 415) },
        },
      },
      async (request, reply) => {
        requireUser(request);
        const upload = await readUpload(request, {
          maxBytes: MAX_CONFIGURATION_BYTES,
          idleMs: ctx.config.uploadIdleMs,
        });
        requireConfigurationFile(upload);
        await streamValidation(ctx, upload, openEventStream(reply));
        return reply;
      },
    );
  }

  app.post(
    '/applications/:name',
    {
      schema: {
        tags: ['applications'],
        summary:
          'Creates an application from a configuration (streamed). The caller needs a creator pattern matching the name.',
        params: NameParamsSchema,
        querystring: ConfigurationUploadQuerySchema,
        ...multipartBody,
        response: { ...Streamed, ...errorResponses(400, 401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const name = request.params.name.trim();
      await checkCreation(ctx, user, name);
      const upload = await readUpload(request, { maxBytes: MAX_CONFIGURATION_BYTES, idleMs: ctx.config.uploadIdleMs });
      requireConfigurationFile(upload);
      const comment = readComment(upload, request.query.comment);
      await streamCreation(ctx, user, name, upload, comment, openEventStream(reply));
      return reply;
    },
  );

  app.post(
    '/applications/:name/configuration',
    {
      schema: {
        tags: ['applications'],
        summary:
          'Stores a new version of the configuration (streamed); refused when it would orphan stored data, and when it deletes stored data without `confirmDataLoss`. With `dryRun` only its impact is reported.',
        params: NameParamsSchema,
        querystring: ConfigurationUploadQuerySchema,
        ...multipartBody,
        response: {
          200: Type.String({
            description:
              'NDJSON events: info, progress, error, warning, result (a stream without result failed). The result is `x-result`: the impact on stored data, with the version stored unless it was a dry run. An update waits for the uploads and publications under way for at most `UPDATE_WAIT_SECONDS`, then ends with the error WRITES_UNDER_WAY {retryAfterSeconds} and changes nothing.',
            'x-result': ConfigurationUpdateResultSchema,
          }),
          ...errorResponses(400, 401, 403, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await checkUpdate(ctx, user, request.params.name);
      const upload = await readUpload(request, { maxBytes: MAX_CONFIGURATION_BYTES, idleMs: ctx.config.uploadIdleMs });
      requireConfigurationFile(upload);
      const comment = readComment(upload, request.query.comment);
      const options = readUpdateOptions(upload, request.query);
      await streamUpdate(ctx, user, application, upload, comment, options, openEventStream(reply), countRows);
      return reply;
    },
  );

  app.get(
    '/applications/:name/configuration',
    {
      schema: {
        tags: ['applications'],
        summary: 'The configuration file exactly as uploaded (current version, or `version`).',
        params: NameParamsSchema,
        querystring: ConfigurationFileQuerySchema,
        response: { 200: Type.Any({ description: 'The file (YAML or zip).' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await configurationFile(ctx, requireUser(request), request.params.name, request.query.version);
      // Header values must stay ASCII: the plain `filename` gets `_` for anything else, `filename*` keeps the real name.
      const asciiName = file.file_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('Content-Type', file.file_name.toLowerCase().endsWith('.zip') ? 'application/zip' : 'application/yaml')
        .header(
          'Content-Disposition',
          `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
        )
        .send(Buffer.from(file.content));
    },
  );
};
