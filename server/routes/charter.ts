import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { CHARTER_TYPES } from '../../src/domain/applications/charter.ts';
import type { ServerContext } from '../context.ts';
import { requireUser } from '../http/authentication.ts';
import { readUpload } from '../http/readUpload.ts';
import { NameParamsSchema } from '../../src/contract/authorizations.ts';
import { CharterIdSchema } from '../../src/contract/charter.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { findApplication } from '../services/applications.ts';
import { MAX_CHARTER_BYTES, readCharter, uploadCharter, type StoredCharter } from '../services/charter.ts';

/**
 * Answers the charter's PDF, to be shown inside the application's own pages (an iframe; the security headers
 * allow framing by this origin only): inline, and checked again each time so that a new upload is seen at once.
 * Exported for the additional-files download, which answers the charter when asked for the type `__charte__`.
 */
export function replyWithCharter(reply: FastifyReply, charter: StoredCharter) {
  const asciiName = charter.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return reply
    .header('Content-Type', 'application/pdf')
    .header(
      'Content-Disposition',
      `inline; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(charter.fileName)}`,
    )
    .header('Cache-Control', 'private, no-cache')
    .header('Last-Modified', charter.uploadedAt.toUTCString())
    .send(Buffer.from(charter.content));
}

export const charterRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  // The original uploads the charter as an additional file of type `__charte__`; we name it `__charter__`.
  for (const fileType of CHARTER_TYPES) {
    app.post(
      `/applications/:name/additionalFiles/${fileType}`,
      {
        schema: {
          tags: ['charter'],
          summary: `Uploads (or replaces) the application's usage charter, a PDF; managers only. Every user who must sign is asked again.`,
          consumes: ['multipart/form-data'],
          description: `Multipart form with the PDF in field \`file\` (at most ${MAX_CHARTER_BYTES / 1024 / 1024} MB); a \`params\` field, as the original sends, is ignored. Answers the charter's id.`,
          params: NameParamsSchema,
          response: { 200: CharterIdSchema, ...errorResponses(400, 401, 403, 404, 413, 415) },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const application = await findApplication(ctx, request.params.name);
        const id = await uploadCharter(ctx, user, application, () =>
          readUpload(request, { maxBytes: MAX_CHARTER_BYTES, idleMs: ctx.config.uploadIdleMs }),
        );
        // A JSON string, as the original answers (Fastify would send a bare string as text).
        return reply.type('application/json').send(JSON.stringify(id));
      },
    );
  }

  app.get(
    '/applications/:name/charter',
    {
      schema: {
        tags: ['charter'],
        summary:
          "The application's usage charter (PDF, inline), for every signed-in user: it is read before it is accepted.",
        params: NameParamsSchema,
        response: { 200: Type.Any({ description: 'The PDF.' }), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      return replyWithCharter(reply, await readCharter(ctx, application));
    },
  );
};
