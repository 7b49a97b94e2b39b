import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { readFilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import { isCharterType } from '../../src/domain/applications/charter.ts';
import type { ServerContext } from '../context.ts';
import { InvalidInput } from '../../src/domain/errors/refusal.ts';
import { requireUser } from '../http/authentication.ts';
import { bodyFields, givenOnce } from '../http/bodyField.ts';
import { readForm } from '../http/readUpload.ts';
import { requireRoomForUpload } from '../http/uploadRoom.ts';
import {
  AdditionalFileDetailSchema,
  FileAuthorizationIdSchema,
  FileAuthorizationSaveSchema,
  FileAuthorizationsQuerySchema,
  FileAuthorizationsSchema,
  FileParamsSchema,
  FileSavedSchema,
  FilesDeletionQuerySchema,
  FilesOverviewQuerySchema,
  FilesOverviewSchema,
  FilesPageQuerySchema,
  FilesPageSchema,
  FileTypeParamsSchema,
  UserFileRightsParamsSchema,
  UserFileRightsSchema,
} from '../../src/contract/additionalFiles.ts';
import { AuthorizationParamsSchema, NameParamsSchema } from '../../src/contract/authorizations.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import { mailLanguage } from '../mail/templates.ts';
import {
  fileRightsOfUser,
  listFileAuthorizations,
  revokeFileAuthorization,
  saveFileAuthorization,
} from '../services/additionalFileAuthorizations.ts';
import { additionalFileContent, getAdditionalFile } from '../services/additionalFileDetail.ts';
import { deleteAdditionalFiles } from '../services/additionalFileDeletion.ts';
import {
  additionalFilesOverview,
  listAdditionalFiles,
  listedWhole,
  wholeFilesList,
} from '../services/additionalFileLists.ts';
import { saveAdditionalFile } from '../services/additionalFileSave.ts';
import { additionalFilesZip } from '../services/additionalFilesZip.ts';
import { findApplication } from '../services/applications.ts';
import { readCharter } from '../services/charter.ts';
import { replyWithCharter } from './charter.ts';

/** The selection sent as `params` or as `additionalFilesInfos` (the original's G3), and in a body for a deletion. */
const selectionText = (query: { params?: string; additionalFilesInfos?: string }, body: typeof query = {}) =>
  givenOnce({
    params: query.params,
    additionalFilesInfos: query.additionalFilesInfos,
    'params (body)': body.params,
    'additionalFilesInfos (body)': body.additionalFilesInfos,
  });

function selectionOf(text: string | undefined) {
  const read = readFilesQuery(text);
  if (!read.ok) throw new InvalidInput(read.problem);
  return read.query;
}

/** Header values must stay ASCII: the plain `filename` gets `_` for anything else, `filename*` keeps the real name. */
const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

/**
 * Uploaded files are always attachments; on top of that, only types a browser never runs as a page or a script
 * keep the type they were sent with (with nosniff, anything else served as octet-stream cannot run).
 */
const HARMLESS_TYPE =
  /^(application\/(pdf|zip|msword|vnd\.[\w.+-]+)|image\/(png|jpeg|gif|webp|tiff|bmp)|text\/(plain|csv)|audio\/[\w.+-]+|video\/[\w.+-]+)$/i;
/** XML or XHTML underneath a vendor's name (`application/vnd.wap.xhtml+xml`, `…xul+xml`): a browser may render it as a page. */
const MARKUP_TYPE = /(\+xml$|xhtml)/i;
const servedType = (contentType: string) =>
  HARMLESS_TYPE.test(contentType) && !MARKUP_TYPE.test(contentType) ? contentType : 'application/octet-stream';

/** The selected files as bytes: the JSON schema of the route's 200 (the overview) does not apply to them. */
function replyWithZip(reply: FastifyReply, zip: AsyncIterable<Uint8Array>) {
  return reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', 'attachment; filename="additionalFile.zip"')
    .send(Readable.from(zip));
}

/** A list written as it is read: the route's schema describes the text, which its serializer does not write. */
function replyWithJsonText(reply: FastifyReply, text: AsyncIterable<string>) {
  return reply.header('Content-Type', 'application/json; charset=utf-8').send(Readable.from(text));
}

export const additionalFileRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext }> = async (app, { ctx }) => {
  app.get(
    '/applications/:name/additionalFiles',
    {
      schema: {
        tags: ['additional files'],
        summary:
          'Without `params`: the file types with their forms, counts and the caller’s rights (with `grantable`, the scope trees of the data too). ' +
          'With `params` (a selection): the selected files as additionalFile.zip, each under its type’s folder, with additionalFiles.json describing them; ' +
          'the charter’s PDF when the selection’s filetype is `__charter__` or `__charte__`.',
        params: NameParamsSchema,
        querystring: FilesOverviewQuerySchema,
        // The zip and the PDF are sent as bytes, which the serializer does not touch.
        response: { 200: FilesOverviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const text = selectionText(request.query);
      if (text === undefined) {
        return additionalFilesOverview(ctx, user, application, {
          grantable: request.query.grantable === true,
          locale: mailLanguage(request.headers['accept-language']),
        });
      }
      const selection = selectionOf(text);
      // The original reads the charter as the download of the type `__charte__`.
      if (isCharterType(selection.filetype)) return replyWithCharter(reply, await readCharter(ctx, application));
      return replyWithZip(reply, await additionalFilesZip(ctx, user, application, selection));
    },
  );

  app.delete(
    '/applications/:name/additionalFiles',
    {
      schema: {
        tags: ['additional files'],
        summary:
          'Deletes the selected files, all or none (the caller must be able to delete each); answers their ids, comma-separated.',
        description:
          'The selection as `params` or `additionalFilesInfos`, in the query string or as a field of a form, url-encoded or JSON body (as the original’s front end sent it); two of them given and different: 400 CONFLICTING_PARAMETERS. No selection: 400 BAD_FILES_QUERY.',
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
        params: NameParamsSchema,
        querystring: FilesDeletionQuerySchema,
        response: { 200: Type.String(), ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const body = await bodyFields(request, ['params', 'additionalFilesInfos']);
      const selection = selectionOf(selectionText(request.query, body));
      const ids = await deleteAdditionalFiles(ctx, user, application, selection);
      return reply.header('Content-Type', 'text/plain; charset=utf-8').send(ids.join(','));
    },
  );

  for (const path of [
    '/applications/:name/additionalfiles/authorization',
    '/applications/:name/additionalFiles/authorization',
  ]) {
    app.get(
      path,
      {
        schema: {
          tags: ['additional files'],
          summary:
            'Additional-file authorizations the caller may see (managers: all; holders of admin: those on their types), the users one may choose, the caller’s standing.',
          params: NameParamsSchema,
          querystring: FileAuthorizationsQuerySchema,
          response: { 200: FileAuthorizationsSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request) =>
        listFileAuthorizations(
          ctx,
          requireUser(request),
          await findApplication(ctx, request.params.name),
          request.query,
        ),
    );
  }

  app.get(
    '/applications/:name/additionalFiles/authorization/:user',
    {
      schema: {
        tags: ['additional files'],
        summary: 'The additional-file rights of a user (operation → file types); `null` for the caller.',
        params: UserFileRightsParamsSchema,
        response: { 200: UserFileRightsSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) =>
      fileRightsOfUser(ctx, requireUser(request), await findApplication(ctx, request.params.name), request.params.user),
  );

  app.post(
    '/applications/:name/additionalFiles/authorization',
    {
      schema: {
        tags: ['additional files'],
        summary: 'Creates (uuid null) or updates an additional-file authorization.',
        params: NameParamsSchema,
        body: FileAuthorizationSaveSchema,
        response: { 201: FileAuthorizationIdSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const application = await findApplication(ctx, request.params.name);
      const { id } = await saveFileAuthorization(ctx, requireUser(request), application, request.body);
      return reply
        .code(201)
        .header(
          'Location',
          `/api/v1/applications/${application.name}/additionalfiles/authorization?authorizationId=${id}`,
        )
        .send({ authorizationId: id });
    },
  );

  app.delete(
    '/applications/:name/additionalFiles/authorization/:id',
    {
      schema: {
        tags: ['additional files'],
        summary: 'Revokes an additional-file authorization (managers, or whoever administers every type it names).',
        params: AuthorizationParamsSchema,
        response: { 200: FileAuthorizationIdSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      await revokeFileAuthorization(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        request.params.id,
      );
      return { authorizationId: request.params.id };
    },
  );

  app.get(
    '/applications/:name/additionalFiles/:fileType',
    {
      schema: {
        tags: ['additional files'],
        summary:
          'The files of one type (form values, size, owner, dates, link status), filtered and paged by `params`; every name the type holds; the caller’s rights.',
        params: FileTypeParamsSchema,
        querystring: FilesPageQuerySchema,
        response: { 200: FilesPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      const query = selectionOf(selectionText(request.query));
      const locale = mailLanguage(request.headers['accept-language']);
      if (!listedWhole(query))
        return listAdditionalFiles(ctx, user, application, request.params.fileType, query, locale);
      return replyWithJsonText(
        reply,
        await wholeFilesList(ctx, user, application, request.params.fileType, query, locale),
      );
    },
  );

  app.post(
    '/applications/:name/additionalFiles/:fileType',
    {
      schema: {
        tags: ['additional files'],
        summary: 'Creates (201) or updates (200) an additional file. Refusals are 4xx with a code and change nothing.',
        consumes: ['multipart/form-data'],
        description:
          'Multipart: `params` = JSON {id: null|uuid, fileName, comment (required), fields: {<form field>: value}, associates: {<data>: {scopes: {<component>: [key]}}}, forApplication}, ' +
          'and `file` (required on creation, optional on update; at most ADDITIONAL_FILE_MAX_BYTES, else 413). The name keeps letters, digits, _, -, . and spaces; one name per type.',
        params: FileTypeParamsSchema,
        response: {
          200: FileSavedSchema,
          201: FileSavedSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const application = await findApplication(ctx, request.params.name);
      // A file is kept as it is sent: it takes its own size.
      const saved = await saveAdditionalFile(ctx, user, application, request.params.fileType, async (keep) => {
        await requireRoomForUpload(ctx, request, 'file');
        return readForm(
          request,
          { maxBytes: ctx.config.additionalFileMaxBytes, idleMs: ctx.config.uploadIdleMs },
          keep,
        );
      });
      return reply.code(saved.created ? 201 : 200).send({ id: saved.id, fileName: saved.fileName });
    },
  );

  app.get(
    '/applications/:name/additionalFiles/:fileType/:id',
    {
      schema: {
        tags: ['additional files'],
        summary: 'One additional file: its description, form values and its type’s form.',
        params: FileParamsSchema,
        response: { 200: AdditionalFileDetailSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      getAdditionalFile(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        request.params.fileType,
        request.params.id,
        mailLanguage(request.headers['accept-language']),
      ),
  );

  app.get(
    '/applications/:name/additionalFiles/:fileType/:id/content',
    {
      schema: {
        tags: ['additional files'],
        summary: 'The file itself, as it was uploaded (always as an attachment).',
        params: FileParamsSchema,
        response: {
          200: Type.Any({
            description:
              'The file’s bytes, with the type it was sent with when harmless, else application/octet-stream.',
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const file = await additionalFileContent(
        ctx,
        requireUser(request),
        await findApplication(ctx, request.params.name),
        request.params.fileType,
        request.params.id,
      );
      return reply
        .header('Content-Type', servedType(file.contentType))
        .header('Content-Disposition', attachment(file.fileName))
        .header('Content-Length', file.size)
        .send(Readable.from(file.content));
    },
  );
};
