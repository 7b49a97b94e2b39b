import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import type { ServerContext } from '../context.ts';
import { callerNow, requireUser } from '../http/authentication.ts';
import { sentWhileAllowed } from '../http/whileAllowed.ts';
import { openEventStream } from '../http/eventStream.ts';
import { openUpload } from '../http/readUpload.ts';
import { requireRoomForUpload, rowsFactor } from '../http/uploadRoom.ts';
import { NameParamsSchema } from '../../src/contract/authorizations.ts';
import { BundleDownloadQuerySchema } from '../../src/contract/bundles.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import { checkCreation, checkUpdate, stillUpdating } from '../services/applications.ts';
import { streamRestore } from '../services/bundleRestore.ts';
import { spoolBundle } from '../services/bundleSpool.ts';
import { claimBundleRun } from '../services/bundleRuns.ts';
import { prepareBundle } from '../services/uploadBundle.ts';

/**
 * What restoring a backup takes on the database's disk: the rows of the files it loads and of the versions it
 * publishes (`factor` bytes per byte of CSV), and the deposited versions and additional files, kept as they are.
 */
function restoredBytes(manifest: BundleManifest, factor: number): number {
  const size = (files: Array<{ size: number }>) => files.reduce((sum, file) => sum + file.size, 0);
  const loaded = manifest.data.filter((data) => data.restored).flatMap((data) => data.files);
  const published = manifest.deposits.filter((deposit) => deposit.published);
  return (size(loaded) + size(published)) * factor + size(manifest.deposits) + size(manifest.additionalFiles);
}

export const uploadBundleRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/upload-bundle',
    {
      schema: {
        tags: ['applications'],
        summary:
          'The bulk-upload kit (configuration, README, one CSV template per data entry) or, with `withData`, the backup (every row as CSV in load order, deposited versions, additional files), as a zip streamed with its manifest. One at a time per user (429).',
        params: NameParamsSchema,
        querystring: BundleDownloadQuerySchema,
        response: {
          200: Type.Any({ description: 'The zip; `X-Bundle-Estimated-Bytes` gives a rough size for progress bars.' }),
          ...errorResponses(401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await checkUpdate(ctx, user, request.params.name);
      const run = await claimBundleRun(ctx, user.id, application.id);
      try {
        const locale = mailLanguage(request.query.locale ?? request.headers['accept-language']);
        const bundle = await prepareBundle(ctx, application, { withData: request.query.withData, locale });
        const content = (async function* () {
          try {
            yield* bundle.content;
          } catch (error) {
            ctx.log(`bundle of ${application.name} failed: ${(error as Error).message}`);
            throw error;
          } finally {
            await run.release();
          }
        })();
        const asciiName = bundle.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
        return reply
          .header('Content-Type', 'application/zip')
          .header(
            'Content-Disposition',
            `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(bundle.fileName)}`,
          )
          .header('Cache-Control', 'no-store')
          .header('X-Bundle-Estimated-Bytes', String(bundle.estimatedBytes))
          .send(
            sentWhileAllowed(
              content,
              stillUpdating(ctx, () => callerNow(request.auth), application.id),
              ctx.log,
            ),
          );
      } catch (error) {
        await run.release();
        throw error;
      }
    },
  );

  app.post(
    '/applications/:name/upload-bundle',
    {
      schema: {
        tags: ['applications'],
        summary:
          'Creates the application `name` from a backup zip (streamed events): configuration, rows, deposited versions with their publication, additional files, all in one transaction. The caller needs a creator pattern matching the name.',
        params: NameParamsSchema,
        consumes: ['multipart/form-data'],
        description: 'Multipart form: `file`, a zip made by `GET …/upload-bundle`.',
        response: {
          200: Type.String({
            description: 'NDJSON events: info, progress, error, result (a stream without result failed).',
          }),
          ...errorResponses(400, 401, 403, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const name = request.params.name.trim();
      await checkCreation(ctx, user, name);
      // A zip holds more than it weighs: its own size is checked before it is read, what it holds once it is.
      await requireRoomForUpload(ctx, request, 'rows');
      const upload = await openUpload(request, ctx.config.bundleMaxBytes, ctx.config.uploadIdleMs);
      const bundle = await spoolBundle(ctx, upload);
      try {
        await ctx.room.require(restoredBytes(bundle.manifest, rowsFactor(ctx.config)));
        await upload.record();
        await streamRestore(ctx, user, name, bundle, openEventStream(reply));
      } finally {
        await bundle.remove();
      }
      return reply;
    },
  );
};
