import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ServerContext } from '../context.ts';
import { inUploadLane } from '../services/uploadLanes.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { callerNow, requireUser } from '../http/authentication.ts';
import { sentWhileAllowed } from '../http/whileAllowed.ts';
import { openStreamedForm } from '../http/readUpload.ts';
import { requireRoomForUpload } from '../http/uploadRoom.ts';
import {
  DataInsertedSchema,
  DataParamsSchema,
  FileParamsSchema,
  SynthesisSchema,
  VariableParamsSchema,
} from '../../src/contract/data.ts';
import {
  PublicationRequestedSchema,
  PublicationStateSchema,
  VersionDeletedSchema,
  VersionDepositedSchema,
  VersionListQuerySchema,
  VersionSchema,
} from '../../src/contract/deposits.ts';
import { CsvRefusalSchema, errorResponses } from '../../src/contract/errors.ts';
import { ReferenceLoadedSchema } from '../../src/contract/references.ts';
import { RowQueryParamSchema, RowsDeletedSchema } from '../../src/contract/rows.ts';
import type { JobRunner } from '../jobs/jobs.ts';
import { findApplication } from '../services/applications.ts';
import {
  deleteVersion,
  depositVersion,
  insertData,
  listVersions,
  readDepositParams,
  readRepositoryId,
  repositoryScope,
  requestPublication,
} from '../services/deposits.ts';
import { CsvRejected } from '../services/ingest.ts';
import { MAX_CSV_BYTES, dataTypeOf, entryOf } from '../services/references.ts';
import { loadReference } from './references.ts';
import { rowQueryOf, safeFileName } from './entryExports.ts';
import { bodyFields, givenOnce } from '../http/bodyField.ts';
import { deletesByKeys } from '../../src/domain/rows/deletionSelection.ts';
import { readAccess, readRights, requireOperation } from '../services/dataAccess.ts';
import { openableVersion, stillOpenable } from '../services/versionAccess.ts';
import { mayOpenVersion } from '../../src/domain/rights/versions.ts';
import { placeOf } from '../../src/domain/rights/access.ts';
import { deleteDataRows } from '../services/dataRows.ts';
import { synthesize } from '../services/synthesis.ts';
import { storedFile } from '../services/fileParts.ts';
import { whileSpooled } from '../services/uploadSpool.ts';

export const dataRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext; jobs: JobRunner }> = async (
  app,
  { ctx, jobs },
) => {
  app.post(
    '/applications/:name/data/:dataType',
    {
      schema: {
        tags: ['data'],
        summary:
          'Deposits a CSV file. Without versioning its rows are inserted or updated at once; with OA_VERSIONING it becomes a version of the dataset given in `params`, published when `topublish` is true. Without a file, `params` {fileid, topublish} publishes or unpublishes a version.',
        consumes: ['multipart/form-data', 'application/json'],
        description:
          'Multipart: `params` (JSON, before the file) and `file`; or a JSON body holding the params alone. A file whose checking takes longer than the server allows is refused with 422 CHECK_BUDGET_EXCEEDED {lineNumber, budgetSeconds}; 503 CHECK_INTERRUPTED when the checking stopped on the server (send it again).',
        params: DataParamsSchema,
        response: {
          201: Type.Union([DataInsertedSchema, VersionDepositedSchema, ReferenceLoadedSchema], {
            description:
              'Without versioning: the rows written, with how many stored rows the file `added` and how many it `replaced` (a line whose natural key, case and accents ignored, was stored already); with it: the version kept; for a reference (as the newest OpenADOM loads them here): the rows loaded.',
          }),
          200: PublicationStateSchema,
          202: PublicationRequestedSchema,
          400: CsvRefusalSchema,
          ...errorResponses(401, 403, 404, 409, 413, 415, 422, 503),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const entry = await entryOf(ctx, request.params.name, request.params.dataType);
      if (entry.entry.kind === 'reference') return loadReference(ctx, request, reply, user, entry);
      const data = entry;
      const versioned = data.entry.submission.strategy === 'OA_VERSIONING';
      /** Publishes or unpublishes a version already deposited: the params name it, no file comes with them. */
      const publish = async (params: ReturnType<typeof readDepositParams>) => {
        const rights = await requireOperation(ctx, user, data, 'publication', 'some');
        if (!versioned || !params.fileid) throw new Refusal('MISSING_FILE');
        const topublish = params.topublish !== false;
        const requested = await requestPublication(ctx, user, data, params.fileid, topublish, rights);
        if ('published' in requested)
          return reply.code(200).send({ fileId: params.fileid, topublish, published: requested.published });
        jobs.poke();
        return reply.code(202).send({ fileId: params.fileid, jobId: requested.jobId, topublish });
      };
      try {
        if (!request.isMultipart()) return await publish(readDepositParams({ json: request.body }));
        // The file's rows are what must fit: written now without versioning, when the version is published with it.
        await requireRoomForUpload(ctx, request, 'rows');
        // The fields come before the file: a form of `params` alone (how scripts publish) is read whole here.
        const form = await openStreamedForm(request, MAX_CSV_BYTES, ctx.config.uploadIdleMs);
        const params = readDepositParams(form.fields.params);
        if (!form.file) return await publish(params);
        const upload = form.file;
        const rights = await requireOperation(ctx, user, data, 'depot', 'some');
        if (!versioned) {
          const stored = await whileSpooled(ctx, upload, (spooled) =>
            inUploadLane(spooled, () => insertData(ctx, data, spooled, rights)),
          );
          await upload.record();
          return reply.code(201).send(stored);
        }
        const { deposited, jobId } = await depositVersion(ctx, user, data, upload, params, rights);
        await upload.record();
        if (jobId) {
          jobs.poke();
          return reply.code(202).send({ fileId: deposited.fileId, jobId, topublish: true });
        }
        return reply.code(201).send(deposited);
      } catch (error) {
        if (error instanceof CsvRejected)
          return reply
            .code(400)
            .send({ code: error.code, message: error.code, params: error.params, errors: error.report.errors });
        throw error;
      }
    },
  );

  app.get(
    '/applications/:name/file/:fileId/publication-state',
    {
      schema: {
        tags: ['data'],
        summary:
          'Where a version stands: published or not, and its latest publication job (status, progress, error). Open to whom may download the version.',
        params: FileParamsSchema,
        response: { 200: VersionSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const application = await findApplication(ctx, request.params.name);
      const { file, data, rights } = await openableVersion(
        ctx,
        application,
        request.params.fileId,
        request.auth?.user ?? null,
      );
      // Asked every 0.7 s while a version is published: only this version is read, not all those of the data type.
      const [version] = await listVersions(ctx, data, { id: file.id }, rights);
      if (!version) throw new Refusal('NO_SUCH_FILE', { fileId: file.id });
      return version;
    },
  );

  app.get(
    '/applications/:name/filesOnRepository/:dataType',
    {
      schema: {
        tags: ['data'],
        summary:
          'Versions of a data type the caller may open, newest first: published ones their reading right covers whole (scope and period), unpublished ones their deposit right covers. `repositoryId` (JSON {requiredAuthorizations, from, to}) narrows to one dataset: one key per scope (several: 400 UNSUPPORTED_PARAMETER).',
        params: DataParamsSchema,
        querystring: VersionListQuerySchema,
        response: { 200: Type.Array(VersionSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const data = await dataTypeOf(ctx, request.params.name, request.params.dataType);
      const { rights } = await readRights(ctx, request.auth?.user ?? null, data);
      const filter = readRepositoryId(request.query.repositoryId);
      const scope = repositoryScope(filter);
      const versions = await listVersions(ctx, data, { scope, from: filter.from, to: filter.to }, rights);
      return versions.filter((v) =>
        mayOpenVersion(rights, data.entry.name, { scopes: v.scope, from: v.from, to: v.to, published: v.published }),
      );
    },
  );

  app.get(
    '/applications/:name/file/:fileId',
    {
      schema: {
        tags: ['data'],
        summary:
          'A deposited file, as it was uploaded: to whom may read it whole (published) or could have deposited it (unpublished). A published version the caller may read only part of answers 403 NO_RIGHT_FOR_WHOLE_VERSION; its rows they may read come from GET …/data/{dataType}/csv.',
        params: FileParamsSchema,
        response: {
          200: Type.Any({ description: 'The CSV file as it was deposited (text/csv).' }),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const application = await findApplication(ctx, request.params.name);
      const { file } = await openableVersion(ctx, application, request.params.fileId, request.auth?.user ?? null);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${safeFileName(file.file_name)}"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`,
        )
        .header('Content-Length', file.size)
        .send(
          sentWhileAllowed(
            storedFile(ctx.db, file.id, file.size),
            stillOpenable(ctx, () => callerNow(request.auth), application.id, file.id),
            ctx.log,
          ),
        );
    },
  );

  app.delete(
    '/applications/:name/file/:fileId',
    {
      schema: {
        tags: ['data'],
        summary: 'Deletes a version; when it is published its rows go with it.',
        params: FileParamsSchema,
        response: { 200: VersionDeletedSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const { file, data } = await openableVersion(ctx, application, request.params.fileId, user);
      return deleteVersion(ctx, data, file.id, await requireOperation(ctx, user, data, 'delete', 'some'));
    },
  );

  app.delete(
    '/applications/:name/data/:dataType',
    {
      schema: {
        tags: ['data'],
        summary:
          'Deletes rows of a data type without versioning (`downloadDatasetQuery` with rowIds or naturalKeys); versions are deleted as files.',
        description:
          '`downloadDatasetQuery` in the query string, or as a field of a form, url-encoded or JSON body (as the original’s front end sent it); both given and different: 400 CONFLICTING_PARAMETERS. A query selecting by componentFilters, by both rowIds and naturalKeys, or by neither, is refused (400 DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS) and deletes nothing. Rows other rows point to are not deleted: 409 REFERENCED_ROWS {referring, referringMore}, listing the pointing rows of entries the caller reads whole, and nothing is deleted.',
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
        params: DataParamsSchema,
        querystring: RowQueryParamSchema,
        response: { 200: RowsDeletedSchema, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const data = await dataTypeOf(ctx, request.params.name, request.params.dataType);
      const rights = await requireOperation(ctx, user, data, 'delete', 'some');
      if (data.entry.submission.strategy === 'OA_VERSIONING')
        throw new Refusal('DELETE_ON_REPOSITORY_APPLICATION_NOT_ALLOWED_EXCEPTION');
      const body = await bodyFields(request, ['downloadDatasetQuery']);
      const query = rowQueryOf(
        givenOnce({
          'downloadDatasetQuery (query)': request.query.downloadDatasetQuery,
          'downloadDatasetQuery (body)': body.downloadDatasetQuery,
        }),
      );
      if (!deletesByKeys(query)) throw new Refusal('DELETION_NEEDS_ROW_IDS_OR_NATURAL_KEYS');
      return {
        deleted: await deleteDataRows(
          ctx.db,
          data.application.id,
          data.entry.name,
          { rowIds: query.rowIds ?? [], naturalKeys: query.naturalKeys ?? [] },
          (name) => rights.all('extraction', name),
          rights.all('delete', data.entry.name)
            ? undefined
            : (row) =>
                rights.allows(
                  'delete',
                  data.entry.name,
                  placeOf(data.entry, row.values, row.period_start, row.period_end),
                ),
        ),
      };
    },
  );

  app.get(
    '/applications/:name/synthesis/:dataType',
    {
      schema: {
        tags: ['data'],
        summary: 'Lines with a value per variable, over ten equal intervals of the period the data covers.',
        params: DataParamsSchema,
        response: { 200: SynthesisSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const data = await dataTypeOf(ctx, request.params.name, request.params.dataType);
      const { filter } = await readAccess(ctx, request.auth?.user ?? null, data);
      return synthesize(ctx, data, filter);
    },
  );

  app.get(
    '/applications/:name/synthesis/:dataType/:variable',
    {
      schema: {
        tags: ['data'],
        summary: 'The synthesis of one variable.',
        params: VariableParamsSchema,
        response: { 200: SynthesisSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const data = await dataTypeOf(ctx, request.params.name, request.params.dataType);
      const { filter } = await readAccess(ctx, request.auth?.user ?? null, data);
      return synthesize(ctx, data, filter, request.params.variable);
    },
  );
};
