import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { inUploadLane } from '../services/uploadLanes.ts';
import { requireUser } from '../http/authentication.ts';
import { sentWhileAllowed } from '../http/whileAllowed.ts';
import { openUpload } from '../http/readUpload.ts';
import { requireRoomForUpload } from '../http/uploadRoom.ts';
import { CsvRejected } from '../services/ingest.ts';
import { readAccess, requireOperation } from '../services/dataAccess.ts';
import { writeVersion } from '../services/dataRows.ts';
import { CsvRefusalSchema, errorResponses } from '../../src/contract/errors.ts';
import { ReferencePageSchema, RowQueryParamSchema, RowsDeletedSchema } from '../../src/contract/rows.ts';
import {
  ReferenceDeletionQuerySchema,
  ReferenceLoadedSchema,
  ReferenceParamsSchema,
  SuggestionQuerySchema,
  SuggestionsSchema,
} from '../../src/contract/references.ts';
import { suggestRows } from '../services/referenceSuggestions.ts';
import { mailLanguage } from '../mail/templates.ts';
import {
  MAX_CSV_BYTES,
  deleteReferenceRows,
  readReference,
  readableRowCount,
  referenceOf,
  type EntryContext,
  referenceRowLines,
  uploadReference,
} from '../services/references.ts';
import { readingAccess, rowQueryOf, sendEveryRow } from './entryExports.ts';
import { whileSpooled } from '../services/uploadSpool.ts';

export const referenceRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.post(
    '/applications/:name/references/:refType',
    {
      schema: {
        tags: ['references'],
        summary:
          'Loads a CSV file into a reference: validated line by line, stored in one transaction (all rows or none).',
        consumes: ['multipart/form-data'],
        description:
          'Multipart form with the CSV in field `file`. The answer says how many stored rows the file `added` and how many it `replaced`: a line whose natural key, case and accents ignored, was stored already replaces its row. A refusal (400 INVALID_CSV) lists the errors: {lineNumber, code, params}. A file whose checking takes longer than the server allows is refused with 422 CHECK_BUDGET_EXCEEDED {lineNumber, budgetSeconds}; 503 CHECK_INTERRUPTED when the checking stopped on the server (send it again); 409 MOVED_REFERENCED_ROWS {rows, referring, versions} when the file moves rows under another parent while other rows or versions point to them. 409 POINTED_ROWS_CHANGED {keys} when rows the file refers to were deleted or moved while it was stored, and 409 APPLICATION_CHANGED_MEANWHILE when the configuration was updated meanwhile (send it again); 503 WRITE_CONFLICT when the database stopped the write to let another through (send it again).',
        params: ReferenceParamsSchema,
        response: {
          201: ReferenceLoadedSchema,
          400: CsvRefusalSchema,
          ...errorResponses(401, 403, 404, 409, 413, 415, 422, 503),
        },
      },
    },
    async (request, reply) =>
      loadReference(
        ctx,
        request,
        reply,
        requireUser(request),
        await referenceOf(ctx, request.params.name, request.params.refType),
      ),
  );

  app.get(
    '/applications/:name/references/:refType',
    {
      schema: {
        tags: ['references'],
        summary:
          'Rows of a reference (filtered, ordered), with display names and column descriptions: one page when `downloadDatasetQuery` gives a `limit`; otherwise every row, streamed, as one document of the same shape (as the original answered every row).',
        params: ReferenceParamsSchema,
        querystring: RowQueryParamSchema,
        response: { 200: ReferencePageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const reference = await referenceOf(ctx, request.params.name, request.params.refType);
      const { filter, allowed } = await readingAccess(ctx, request, reference);
      const query = rowQueryOf(request.query.downloadDatasetQuery);
      const locale = mailLanguage(request.headers['accept-language']);
      if (query.limit === undefined)
        return sendEveryRow(ctx, reply, reference, { query, locale, filter, allowed: allowed() });
      return readReference(ctx, reference, query, locale, filter);
    },
  );

  app.get(
    '/applications/:name/references/:refType/rows',
    {
      schema: {
        tags: ['references'],
        summary:
          'Every row of the reference the caller may read as NDJSON ({id, naturalKey, hierarchicalKey, values} per line), for offline use; X-Total-Count gives the number, X-Entry-Version the write version the copy is of (see entryVersions in the application), X-Rows-Part `true` when the caller may read only part of the rows (a device then notes values outside that part instead of refusing them).',
        params: ReferenceParamsSchema,
        response: { 200: Type.Any(), ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const reference = await referenceOf(ctx, request.params.name, request.params.refType);
      const { filter, allowed } = await readingAccess(ctx, request, reference);
      // Read before the rows: a write meanwhile leaves the copy marked older than it may be, never newer.
      const version = await writeVersion(ctx.db, reference.application.id, reference.entry.name);
      return reply
        .header('Content-Type', 'application/x-ndjson')
        .header('X-Total-Count', String(await readableRowCount(ctx, reference, filter)))
        .header('X-Entry-Version', String(version))
        .header('X-Rows-Part', String(filter.kind === 'some'))
        .send(sentWhileAllowed(referenceRowLines(ctx, reference, filter), allowed(), ctx.log));
    },
  );

  app.get(
    '/applications/:name/references/:refType/suggestions',
    {
      schema: {
        tags: ['references'],
        summary:
          'Rows of the reference whose display label (in `lang`) or natural key has words beginning with the words of `q`, case and accents ignored: {naturalKey, label}, for the filters of components pointing to it. Only rows the caller may read.',
        params: ReferenceParamsSchema,
        querystring: SuggestionQuerySchema,
        response: { 200: SuggestionsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const reference = await referenceOf(ctx, request.params.name, request.params.refType);
      const { filter } = await readAccess(ctx, request.auth?.user ?? null, reference);
      const { q, lang, limit = 20 } = request.query;
      const locale = lang ?? mailLanguage(request.headers['accept-language']);
      return { suggestions: await suggestRows(ctx, reference, q, locale, limit, filter) };
    },
  );

  app.delete(
    '/applications/:name/references/:refType',
    {
      schema: {
        tags: ['references'],
        summary:
          'Deletes rows by natural key, in one transaction; refused (409 REFERENCED_ROWS) when other rows point to them.',
        params: ReferenceParamsSchema,
        querystring: ReferenceDeletionQuerySchema,
        response: { 200: RowsDeletedSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const reference = await referenceOf(ctx, request.params.name, request.params.refType);
      const rights = await requireOperation(ctx, user, reference, 'delete', 'all');
      const keys = Array.isArray(request.query.naturalKey) ? request.query.naturalKey : [request.query.naturalKey];
      return {
        deleted: await deleteReferenceRows(ctx, reference, keys, (name) => rights.all('extraction', name)),
      };
    },
  );
};

/**
 * Loads the CSV of a multipart form into a reference: every row or none. Answered at `references/{refType}` and, as
 * the newest OpenADOM loads references, at `data/{refType}`.
 */
export async function loadReference(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: ReturnType<typeof requireUser>,
  reference: EntryContext,
) {
  const rights = await requireOperation(ctx, user, reference, 'depot', 'all');
  await requireRoomForUpload(ctx, request, 'rows');
  const upload = await openUpload(request, MAX_CSV_BYTES, ctx.config.uploadIdleMs);
  try {
    const stored = await whileSpooled(ctx, upload, (spooled) =>
      inUploadLane(spooled, () => uploadReference(ctx, reference, spooled, rights)),
    );
    await upload.record();
    return reply.code(201).send(stored);
  } catch (error) {
    if (error instanceof CsvRejected) {
      return reply
        .code(400)
        .send({ code: error.code, message: error.code, params: error.params, errors: error.report.errors });
    }
    throw error;
  }
}
