import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ServerContext } from './context.ts';
import { InvalidInput, Refusal } from '../src/domain/errors/refusal.ts';
import { errorBody, statusOf } from './http/errorBody.ts';
import { databaseFailure } from './http/databaseErrors.ts';
import { registerAuthentication, SECURE_SESSION_COOKIE, SESSION_COOKIE } from './http/authentication.ts';
import { registerCsrfGuard } from './http/csrf.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerSecurityHeaders } from './http/securityHeaders.ts';
import { accountRoutes } from './routes/accounts.ts';
import { applicationRoutes } from './routes/applications.ts';
import { platformRoleRoutes } from './routes/platformRoles.ts';
import { referenceRoutes } from './routes/references.ts';
import { dataRoutes } from './routes/data.ts';
import { entryExportRoutes } from './routes/entryExports.ts';
import { authorizationRoutes } from './routes/authorizations.ts';
import { additionalFileRoutes } from './routes/additionalFiles.ts';
import { charterRoutes } from './routes/charter.ts';
import { rightsRequestRoutes } from './routes/rightsRequests.ts';
import { uploadBundleRoutes } from './routes/uploadBundle.ts';
import type { JobRunner } from './jobs/jobs.ts';
import type { RowCounter } from './services/applications.ts';
import type { SessionKeeper } from './services/sessions.ts';
import { registerNulGuard } from './http/nulGuard.ts';
import { registerAnswerCheck, type AnswerMismatch } from './http/answerCheck.ts';
import { inArrivalOrder } from './db/sessionOrder.ts';
import { inGatedRequest } from './services/entryGate.ts';

export interface AppOptions {
  ctx: ServerContext;
  sessions: SessionKeeper;
  /** The structured log; without it (tests) internal errors go to `ctx.log`. */
  logger?: FastifyBaseLogger;
  /** Counts the rows an update must not orphan; without it no application has rows. */
  countRows?: RowCounter;
  jobs: JobRunner;
  /** This server instance's id: the keys of requests it runs name it (idempotency.ts). */
  instance: string;
  /** The database lends one session at a time (the embedded PGlite), in the order requests arrived. */
  oneSession?: boolean;
  /** Tests: every JSON answer is checked against its route's response schema, and mismatches reported here. */
  onAnswerMismatch?: (mismatch: AnswerMismatch) => void;
}

export const API_PREFIX = '/api/v1';

/** Builds the HTTP server in layers: parsing and headers, then sessions, then the API, then the UI files. */
export async function buildApp({
  ctx,
  sessions,
  jobs,
  instance,
  logger,
  countRows,
  oneSession = false,
  onAnswerMismatch,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : {}),
    // Each answer is logged once, at debug level, by the hook below; Fastify's own lines would come at info.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    trustProxy: ctx.config.trustProxy,
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true } },
    // Errors raised before routing (a badly encoded URL, say) get the same body shape as every other refusal.
    frameworkErrors: (_error, _request, reply) => (reply as FastifyReply).code(400).send(errorBody('BAD_REQUEST')),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // The embedded database lends its one session in the order requests arrived (sessionOrder.ts). First of all
  // hooks, so that everything after it, sessions included, has its place. PostgreSQL has a session per statement.
  if (logger && ['debug', 'trace'].includes(logger.level)) {
    // Arrivals too, and clients that left before their answer: a request still running, or answered to nobody,
    // shows in the log.
    app.addHook('onRequest', async (request, reply) => {
      request.log.debug({ method: request.method, url: request.url }, 'arrived');
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) request.log.debug({ ms: Math.round(reply.elapsedTime) }, 'client left');
      });
    });
    app.addHook('onResponse', async (request, reply) => {
      request.log.debug(
        { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'answered',
      );
    });
  }
  if (oneSession) app.addHook('onRequest', (_request, _reply, done) => inArrivalOrder(performance.now(), done));
  // There, large writes commit batch after batch; a request reading their entry waits, and holds it until its
  // answer is sent (entryGate.ts).
  if (oneSession)
    app.addHook('onRequest', (_request, reply, done) =>
      inGatedRequest((release) => (reply.raw.once('close', release), done())),
    );
  // The schemas' validator turns a number too large for a double ("1e309") into Infinity and lets it through its
  // maximum; no count the API takes is infinite: such a query or path is refused before any handler reads it.
  app.addHook('preHandler', async (request, reply) => {
    for (const part of [request.query, request.params])
      if (part && typeof part === 'object')
        for (const value of Object.values(part).flat())
          if (typeof value === 'number' && !Number.isFinite(value))
            return reply.code(400).send(errorBody('BAD_REQUEST', { details: ['a number is not finite'] }));
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  await app.register(cookie);
  await app.register(multipart);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Terrain API',
        version: '1',
        description: 'Research-data applications (OpenADOM v2 configurations).',
      },
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: `\`${SECURE_SESSION_COOKIE}\` over HTTPS`,
          },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });
  registerSecurityHeaders(app);
  registerCsrfGuard(app);
  registerAuthentication(app, sessions);
  registerIdempotency(app, ctx.db, instance);
  registerNulGuard(app);
  if (onAnswerMismatch) registerAnswerCheck(app, onAnswerMismatch);
  app.setErrorHandler(async (error: FastifyError | Refusal | InvalidInput, request, reply) => {
    if (error instanceof Refusal || error instanceof InvalidInput) {
      const status = statusOf(error);
      // Every 429 says when to try again, so that scripts and the outbox wait instead of hammering.
      if (status === 429)
        reply.header(
          'Retry-After',
          String(Math.max(1, Math.ceil((error instanceof Refusal ? error.retryAfterSeconds : undefined) ?? 1))),
        );
      return reply.code(status).send(errorBody(error.code, error.params));
    }
    if (error.validation) {
      return reply.code(400).send(
        errorBody('BAD_REQUEST', {
          details: error.validation.map((v) =>
            `${v.instancePath || v.params?.missingProperty || ''} ${v.message ?? ''}`.trim(),
          ),
        }),
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)
      return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE'));
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE'));
    // Any other refusal of the framework's (a malformed body, a bad content length…): one code, one status.
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return reply.code(400).send(errorBody('BAD_REQUEST'));
    const database = databaseFailure(error);
    if (database) {
      ctx.log(`database failure on ${request.method} ${request.url}: ${error.message}`);
      if (database.retryAfterSeconds) reply.header('Retry-After', String(database.retryAfterSeconds));
      // An upload may have stopped being read half-way: the rest is dropped so the client can finish sending and
      // read this answer (unread, it would wait on a stalled connection).
      if (!request.raw.complete) request.raw.unpipe().resume();
      // A write that did not fit is refused once its space is given back: a client trying again at once (or an
      // operator looking at the disk) finds it as it was before.
      if (database.code === 'STORAGE_FULL') await ctx.room.givenBack();
      return reply.code(statusOf(database)).send(errorBody(database.code, database.params));
    }
    if (logger) request.log.error({ err: error, method: request.method, url: request.url }, 'internal error');
    else ctx.log(`internal error on ${request.method} ${request.url}: ${error.stack ?? error.message}`);
    return reply.code(500).send(errorBody('INTERNAL_ERROR'));
  });

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(accountRoutes, { ctx, sessions });
      await api.register(applicationRoutes, { ctx, countRows });
      await api.register(platformRoleRoutes, { ctx });
      await api.register(referenceRoutes, { ctx });
      await api.register(dataRoutes, { ctx, jobs });
      await api.register(entryExportRoutes, { ctx, kind: 'reference' });
      await api.register(entryExportRoutes, { ctx, kind: 'dataType' });
      await api.register(authorizationRoutes, { ctx });
      await api.register(uploadBundleRoutes, { ctx });
      await api.register(additionalFileRoutes, { ctx });
      await api.register(charterRoutes, { ctx });
      await api.register(rightsRequestRoutes, { ctx });
    },
    { prefix: API_PREFIX },
  );

  const hasUi = existsSync(path.join(ctx.config.staticDir, 'index.html'));
  if (hasUi) {
    await app.register(fastifyStatic, {
      root: ctx.config.staticDir,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        // Hashed build files never change; everything else (index, service worker, manifest) must be revalidated
        // or users would stay on an old version.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Only page addresses fall back to the application; a missing script or image must be a 404, never a page. An
    // address ending like a file name is a page when a browser opens it (`/applicationCreation/app/1.0.0`).
    const pathname = request.url.split('?')[0];
    const opened = (request.headers.accept ?? '').includes('text/html');
    const isPage =
      !pathname.startsWith('/api/') && !pathname.startsWith('/assets/') && (opened || !/\.[a-z0-9]+$/i.test(pathname));
    if (!hasUi || !isPage || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send(errorBody('NOT_FOUND'));
    }
    // Any other page is a route of the single-page application.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
  return app;
}
