import { CHARTER_TYPES } from '../../src/domain/applications/charter.ts';
import type { FilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import type { AdditionalFileType } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { holds, requireFileReader } from './additionalFileRights.ts';
import { rightsOf } from './authorizations.ts';
import { referenceScopesOf } from './scopeTrees.ts';
import { type FilesOverview, type FilesPage } from '../../src/contract/additionalFiles.ts';
import { fieldChoicesOf, valuesIn } from './additionalFileChoices.ts';
import { fileTypeOf, typeRightsOf, viewOf } from './additionalFileRows.ts';
import { scanned, selectFilesPage, selectionOf } from './additionalFileSelection.ts';
import { RowWindow } from './rowWindow.ts';

/**
 * What the additional-files pages start from: the application's file types with their forms, how many files
 * each holds and what the caller may do with them. With `grantable`, the scope trees of the data too (the
 * association panel of the file form).
 */
export async function additionalFilesOverview(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  options: { grantable: boolean; locale: string },
): Promise<FilesOverview> {
  const access = await requireFileReader(ctx, user, application);
  const counts = await ctx.db
    .selectFrom('additional_files')
    .select(['file_type', (eb) => eb.fn.countAll<number>().as('count')])
    .where('application_id', '=', application.id)
    .where('file_type', 'not in', CHARTER_TYPES)
    .groupBy('file_type')
    .execute();
  const types = application.model.additionalFiles;
  return {
    fileNames: types.map((t) => t.name),
    additionalFileTypes: types.map((type) => ({
      name: type.name,
      i18n: type.i18n,
      fields: type.fields,
      count: Number(counts.find((c) => c.file_type === type.name)?.count ?? 0),
      rights: typeRightsOf(access, type.name),
    })),
    isAdministrator: access.manager,
    // Managers, user managers and holders of `admin` open the additional-file authorizations.
    managesFileRights: access.manager || access.userManager || types.some((t) => holds(access, 'admin', t.name)),
    ...(options.grantable ? { referenceScopes: await referenceScopesOf(ctx, application, options.locale) } : {}),
  };
}

/** Every name of a type, to warn about a duplicate before sending. */
async function fileNamesOf(ctx: ServerContext, application: ApplicationRow, type: AdditionalFileType) {
  const names = await ctx.db
    .selectFrom('additional_files')
    .select('file_name')
    .where('application_id', '=', application.id)
    .where('file_type', '=', type.name)
    .orderBy('file_name')
    .execute();
  return names.map((r) => r.file_name);
}

/** Whether a list is asked for whole, without a field filter: it is then written as it is read ({@link wholeFilesList}). */
export const listedWhole = (query: FilesQuery) =>
  query.limit === null && Object.values(query.fieldFilters).every((filters) => filters.length === 0);

/**
 * One type's files asked for without `limit` (the original's unpaged read), as the JSON text of
 * {@link listAdditionalFiles}'s answer, written a page of files at a time as they are read: built whole, 50,000 files
 * were 23.5 MB held at once and about a second of the request thread. The owners and the labels of the values the
 * files hold come after the files.
 */
export async function wholeFilesList(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  query: FilesQuery,
  locale: string,
): Promise<AsyncIterable<string>> {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  const { select, budget } = selectionOf(ctx, application, { ...query, filetype: type.name });
  const head = {
    additionalFileName: type.name,
    description: { i18n: type.i18n, fields: type.fields },
    fileNames: await fileNamesOf(ctx, application, type),
    offset: query.offset,
    limit: null,
    rights: typeRightsOf(access, type.name),
  };
  const referenceFields = type.fields.filter((field) => field.checker?.kind === 'reference').map((f) => f.name);
  // The first page is read before answering: a database that cannot answer is a refusal, not a list cut short.
  const pages = select ? scanned(select, budget) : undefined;
  const first = await pages?.next();
  async function* everyPage() {
    if (!first || first.done) return;
    yield first.value;
    yield* pages!;
  }
  return (async function* () {
    yield `${JSON.stringify(head).slice(0, -1)},"additionalBinaryFiles":[`;
    const owners = new Map<string, string>();
    const used = new Map(referenceFields.map((field) => [field, new Set<string>()]));
    // Every file from the offset on, as the head's `limit: null` says.
    const rowWindow = new RowWindow(query.offset, null);
    let written = false;
    for await (const rows of everyPage()) {
      const kept = rowWindow.keep(rows);
      if (kept.length) {
        yield `${written ? ',' : ''}${kept.map((row) => JSON.stringify(viewOf(row, access))).join(',')}`;
        written = true;
      }
      for (const row of kept) {
        if (row.owner_id) owners.set(row.owner_id, row.owner_login ?? '');
        for (const [field, values] of used) if (row.fields[field]) values.add(row.fields[field]);
      }
    }
    const choices = await fieldChoicesOf(
      ctx,
      application,
      type,
      locale,
      (field) => [...(used.get(field) ?? [])],
      await rightsOf(ctx, user, application),
    );
    const tail = {
      users: [...owners].map(([id, label]) => ({ id, label })),
      ...choices,
      totalCount: rowWindow.total,
    };
    yield `],${JSON.stringify(tail).slice(1)}`;
  })();
}

/** One type's files, filtered and paged (api.md §10 GetAdditionalFilesResult). */
export async function listAdditionalFiles(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  query: FilesQuery,
  locale: string,
): Promise<FilesPage> {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  const { page, total } = await selectFilesPage(ctx, application, { ...query, filetype: type.name });
  const owners = new Map(page.filter((r) => r.owner_id).map((r) => [r.owner_id!, r.owner_login ?? '']));
  return {
    additionalFileName: type.name,
    description: { i18n: type.i18n, fields: type.fields },
    ...(await fieldChoicesOf(ctx, application, type, locale, valuesIn(page), await rightsOf(ctx, user, application))),
    users: [...owners].map(([id, label]) => ({ id, label })),
    additionalBinaryFiles: page.map((row) => viewOf(row, access)),
    fileNames: await fileNamesOf(ctx, application, type),
    totalCount: total,
    offset: query.offset,
    limit: query.limit,
    rights: typeRightsOf(access, type.name),
  };
}
