import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { readRowQuery, type RowQuery } from '../../src/domain/rows/rowQuery.ts';
import type { ServerContext } from '../context.ts';
import { InvalidInput, Refusal } from '../../src/domain/errors/refusal.ts';
import { regExpFilterIn } from '../../src/domain/rows/regExpFilters.ts';
import { errorResponses } from '../../src/contract/errors.ts';
import {
  DataTypePageSchema,
  DownloadQuerySchema,
  ReferencePageSchema,
  type ExportForm,
} from '../../src/contract/rows.ts';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import { ReferenceParamsSchema } from '../../src/contract/references.ts';
import { DataParamsSchema } from '../../src/contract/data.ts';
import { mailLanguage } from '../mail/templates.ts';
import { readAccess, stillReading } from '../services/dataAccess.ts';
import { callerNow } from '../http/authentication.ts';
import { sentWhileAllowed } from '../http/whileAllowed.ts';
import { entryCsv, entryJson, entryUploadCsvs, referencedEntries } from '../services/entryExports.ts';
import { entryOf, readReference, referenceOf, type EntryContext } from '../services/references.ts';
import { zipOf } from '../services/zipOutput.ts';

/** The row query of `downloadDatasetQuery`, or the 400 that says what is wrong with it. */
export function rowQueryOf(text: string | undefined): RowQuery {
  const read = readRowQuery(text);
  if (!read.ok) throw new InvalidInput(read.problem);
  const regExpFilter = regExpFilterIn(text);
  if (regExpFilter !== undefined)
    throw new Refusal('UNSUPPORTED_PARAMETER', {
      parameter: 'componentFilters[].isRegExp',
      componentKey: regExpFilter,
    });
  return read.query;
}

/**
 * The CSV files of an entry in the asked form: one readable file, or the files to load again (one per shape of its
 * rows). A file to load again keeps the exact values, so it is never made safe for spreadsheets.
 */
async function csvFiles(
  ctx: ServerContext,
  data: EntryContext,
  query: RowQuery,
  options: { form?: ExportForm; spreadsheetSafe?: boolean; locale: string },
  filter: RowFilter,
): Promise<Array<AsyncIterable<string>>> {
  if (options.form !== 'upload') return [await entryCsv(ctx, data, query, options, filter)];
  if (options.spreadsheetSafe) throw new Refusal('UPLOAD_FORM_NOT_SPREADSHEET_SAFE');
  return entryUploadCsvs(ctx, data, query, filter);
}

/** The names of an entry's CSV files in a zip: `<name>.csv`, then `<name>-2.csv`… for the other shapes. */
const csvNames = (folder: string, name: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${folder}${safeFileName(name)}${index > 0 ? `-${index + 1}` : ''}.csv`);

/**
 * The caller's rights on an entry's rows, and `allowed`: what a long answer of them checks again while it is sent,
 * that the caller may still read the rows `filters` let through (the entry's own filter by default).
 */
export async function readingAccess(ctx: ServerContext, request: Pick<FastifyRequest, 'auth'>, data: EntryContext) {
  const access = await readAccess(ctx, request.auth?.user ?? null, data);
  const allowed = (filters: Record<string, RowFilter> = { [data.entry.name]: access.filter }) =>
    stillReading(ctx, () => callerNow(request.auth), data, filters);
  return { ...access, allowed };
}

/** A stream goes out as it is written, past the serializer: the page schema describes the document it makes. */
const sendStream = (reply: FastifyReply, stream: Readable) => reply.send(stream);

/**
 * Every row matching a query without a `limit`, streamed in constant memory as one document of the page's shape:
 * the original answered every row there, and scripts read them all in one request.
 */
export async function sendEveryRow(
  ctx: ServerContext,
  reply: FastifyReply,
  data: EntryContext,
  {
    query,
    locale,
    filter,
    allowed,
  }: { query: RowQuery; locale: string; filter: RowFilter; allowed: () => Promise<void> },
) {
  const document = sentWhileAllowed(await entryJson(ctx, data, query, locale, filter), allowed, ctx.log);
  return sendStream(
    reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Content-Disposition', `inline; filename="${safeFileName(data.entry.name)}.json"`),
    document,
  );
}

export const safeFileName = (name: string) => name.replace(/[^a-zA-Z0-9_.-]/g, '_');

const kinds = {
  reference: {
    path: 'references',
    param: 'refType',
    find: referenceOf,
    tag: 'references',
    noun: 'reference',
    Params: ReferenceParamsSchema,
    Page: ReferencePageSchema,
  },
  dataType: {
    path: 'data',
    param: 'dataType',
    // The newest OpenADOM reads references under data/ too: a reference named here answers as under references/.
    find: entryOf,
    tag: 'data',
    noun: 'data type (published versions only) or reference',
    Params: DataParamsSchema,
    Page: DataTypePageSchema,
  },
} as const;

/**
 * The downloads of a reference or a data type: CSV, zip (with the CSV of the references its columns point to) and
 * JSON. Every matching row, whatever the number, streamed in constant memory; the caller's rights filter the rows
 * as in the consultation.
 */
export const entryExportRoutes: FastifyPluginAsyncTypebox<{ ctx: ServerContext; kind: keyof typeof kinds }> = async (
  app,
  { ctx, kind },
) => {
  const { path, param, find, tag, noun, Params, Page } = kinds[kind];
  const opened = async (
    request: Pick<FastifyRequest, 'params' | 'headers' | 'auth'> & { query: Static<typeof DownloadQuerySchema> },
  ) => {
    const params = request.params as Record<'name' | typeof param, string>;
    const data = await find(ctx, params.name, params[param]);
    const access = await readingAccess(ctx, request, data);
    const query = rowQueryOf(request.query.downloadDatasetQuery);
    const locale = query.outPut?.locale ?? mailLanguage(request.headers['accept-language']);
    return { data, ...access, query, locale };
  };

  app.get(
    `/applications/:name/${path}/:${param}/csv`,
    {
      schema: {
        tags: [tag],
        summary: `The ${noun} as CSV: UTF-8, its separator, every field quoted; to read (\`form=titles\`, translated titles) or to load again (\`form=upload\`, as an upload takes it); every row matching \`downloadDatasetQuery\` (paging ignored).`,
        params: Params,
        querystring: DownloadQuerySchema,
        response: { 200: Type.Any({ description: 'text/csv' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { data, filter, query, locale, allowed } = await opened(request);
      const { form, spreadsheetSafe } = request.query;
      const files = await csvFiles(ctx, data, query, { form, spreadsheetSafe, locale }, filter);
      if (files.length > 1) throw new Refusal('UPLOAD_FORM_SEVERAL_FILES', { files: files.length });
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${safeFileName(data.entry.name)}.csv"`)
        .send(sentWhileAllowed(files[0], allowed(), ctx.log));
    },
  );

  app.get(
    `/applications/:name/${path}/:${param}/zip`,
    {
      schema: {
        tags: [tag],
        summary:
          kind === 'dataType'
            ? 'A zip (export.zip) of the data type as CSV and of every reference its columns point to (references/<name>.csv, the rows the caller may read).'
            : 'The reference as a zip (export.zip) holding its CSV.',
        params: Params,
        querystring: DownloadQuerySchema,
        response: { 200: Type.Any({ description: 'application/zip' }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { data, rights, filter, query, locale, allowed } = await opened(request);
      const options = { locale, form: request.query.form, spreadsheetSafe: request.query.spreadsheetSafe };
      const references = (data.entry.kind === 'dataType' ? referencedEntries(data) : []).filter((reference) =>
        rights.any('extraction', reference.entry.name),
      );
      const filters = Object.fromEntries([
        [data.entry.name, filter],
        ...references.map((reference) => [reference.entry.name, rights.rowFilter('extraction', reference.entry.name)]),
      ]);
      const named = (folder: string, entry: EntryContext, contents: Array<AsyncIterable<string>>) => {
        const names = csvNames(folder, entry.entry.name, contents.length);
        return contents.map((content, index) => ({ name: names[index], content }));
      };
      const files = [
        ...named('', data, await csvFiles(ctx, data, query, options, filter)),
        ...(
          await Promise.all(
            references.map(async (reference: EntryContext) =>
              named(
                'references/',
                reference,
                await csvFiles(ctx, reference, {}, options, filters[reference.entry.name]),
              ),
            ),
          )
        ).flat(),
      ];
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', 'attachment; filename="export.zip"')
        .send(sentWhileAllowed(zipOf(files), allowed(filters), ctx.log));
    },
  );

  app.get(
    `/applications/:name/${path}/:${param}/json`,
    {
      schema: {
        tags: [tag],
        summary: `Rows of the ${noun} matching \`downloadDatasetQuery\`: one page when it gives a \`limit\`; otherwise every row, streamed, as one document of the same shape.`,
        ...(kind === 'dataType'
          ? {
              description:
                'A reference named here answers as `references/{refType}/json` does (its page: referenceType, referenceValues).',
            }
          : {}),
        params: Params,
        querystring: DownloadQuerySchema,
        response: { 200: Page, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { data, filter, query, locale, allowed } = await opened(request);
      if (query.limit === undefined)
        return sendEveryRow(ctx, reply, data, { query, locale, filter, allowed: allowed() });
      const page = await readReference(ctx, data, query, locale, filter);
      if (kind === 'reference') return page;
      // A reference read under data/: its own page, which the data type's schema does not describe.
      if (data.entry.kind === 'reference')
        return sendStream(
          reply.header('Content-Type', 'application/json; charset=utf-8'),
          Readable.from([JSON.stringify(page)]),
        );
      return {
        dataType: data.entry.name,
        title: page.title,
        columns: page.columns,
        rows: page.referenceValues,
        totalRows: page.totalRows,
      };
    },
  );
};
