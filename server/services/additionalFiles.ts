import { sql } from 'kysely';
import { type Associates } from '../../src/domain/additionalFiles/associates.ts';
import { CHARTER_TYPES, isCharterType } from '../../src/domain/applications/charter.ts';
import { FILE_OPERATIONS } from '../../src/domain/additionalFiles/authorization.ts';
import { compileFieldFilters, overBudget, type FilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import { regexBudget, type RegexBudget } from '../../src/domain/regex/searchBudget.ts';
import type { AdditionalFileType } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { holds, mayDelete, mayEdit, requireFileReader, type FileAccess } from './additionalFileRights.ts';
import { rightsOf } from './authorizations.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { referenceScopesOf } from './scopeTrees.ts';
import {
  type AdditionalFile,
  type AdditionalFileDetail,
  type FilesOverview,
  type FilesPage,
  type TypeRights,
} from '../../src/contract/additionalFiles.ts';
import { storedFile } from './fileParts.ts';
import { referenceChoices } from './fieldChoices.ts';
import type { FieldChoice } from '../../src/domain/forms/fieldChoices.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { recordApplied } from '../db/appliedWork.ts';
import { RowWindow } from './rowWindow.ts';

const COLUMNS = [
  'f.id',
  'f.file_type',
  'f.file_name',
  'f.content_type',
  'f.size',
  'f.content_id',
  'f.comment',
  'f.fields',
  'f.associates',
  'f.for_application',
  'f.owner_id',
  'f.created_at',
  'f.updated_at',
  'u.login as owner_login',
  'f.original_owner',
] as const;

/** The application's files (never the charter, which has its own calls), without their bytes. */
export function filesOf(ctx: ServerContext, application: ApplicationRow) {
  return ctx.db
    .selectFrom('additional_files as f')
    .leftJoin('users as u', 'u.id', 'f.owner_id')
    .select(COLUMNS)
    .where('f.application_id', '=', application.id)
    .where('f.file_type', 'not in', CHARTER_TYPES);
}

export type FileRow = Awaited<ReturnType<ReturnType<typeof filesOf>['executeTakeFirstOrThrow']>>;

export function viewOf(row: FileRow, access: FileAccess): AdditionalFile {
  return {
    id: row.id,
    fileType: row.file_type,
    fileName: row.file_name,
    size: row.size,
    contentType: row.content_type,
    comment: row.comment,
    user: row.owner_id,
    ownerLogin: row.owner_login,
    originalOwner: row.original_owner,
    createDate: row.created_at.toISOString(),
    updateDate: row.updated_at.toISOString(),
    forApplication: row.for_application,
    associates: row.associates as Associates,
    additionalBinaryFileForm: row.fields,
    mayEdit: mayEdit(access, row),
    mayDelete: mayDelete(access, row),
  };
}

export const typeRightsOf = (access: FileAccess, fileType: string): TypeRights =>
  Object.fromEntries(FILE_OPERATIONS.map((operation) => [operation, holds(access, operation, fileType)])) as TypeRights;

/** A type of the configuration; the charter's type is refused by name (it is uploaded through its own call). */
export function fileTypeOf(application: ApplicationRow, fileType: string): AdditionalFileType {
  if (isCharterType(fileType)) throw new Refusal('CHARTER_TYPE_RESERVED', { fileType });
  const type = application.model.additionalFiles.find((t) => t.name === fileType);
  if (!type) throw new Refusal('NO_SUCH_ADDITIONAL_FILE_TYPE', { name: application.name, fileType });
  return type;
}

/**
 * The choices of each reference field (natural key and label in `locale`, by label) whose reference is small enough
 * to choose from (`fieldChoices`), and for the others the labels of the values `files` hold (`valueLabels`).
 */
async function fieldChoicesOf(
  ctx: ServerContext,
  application: ApplicationRow,
  type: AdditionalFileType,
  locale: string,
  valuesOf: (field: string) => string[],
  reader: Rights,
) {
  const model = application.model;
  const fieldChoices: Record<string, FieldChoice[]> = {};
  const valueLabels: Record<string, FieldChoice[]> = {};
  const byLabel = (a: FieldChoice, b: FieldChoice) => a.label.localeCompare(b.label, locale);
  for (const field of type.fields) {
    if (field.checker?.kind !== 'reference') continue;
    const target = model.data.find((d) => d.name === (field.checker as { reference: string }).reference);
    if (!target) {
      fieldChoices[field.name] = [];
      continue;
    }
    const { choices, labels } = await referenceChoices(ctx, application, target, locale, reader, valuesOf(field.name));
    if (choices) fieldChoices[field.name] = choices.sort(byLabel);
    else valueLabels[field.name] = labels.sort(byLabel);
  }
  return { fieldChoices, valueLabels };
}

/** The values `files` hold in a field, for {@link fieldChoicesOf}. */
const valuesIn = (files: ReadonlyArray<{ fields: Record<string, string> }>) => (field: string) =>
  files.map((file) => file.fields[field]).filter((value): value is string => Boolean(value));

/**
 * The files a selection names: ids, names, a type, and per type filters on the form values. Files are ordered by
 * type then name, as the list and the zip show them.
 */
export async function selectFiles(
  ctx: ServerContext,
  application: ApplicationRow,
  query: FilesQuery,
): Promise<FileRow[]> {
  const { select, matches, budget } = selectionOf(ctx, application, query);
  if (!select) return [];
  if (!matches) return ordered(select).execute();
  const selected: FileRow[] = [];
  for await (const rows of scanned(select, budget)) selected.push(...rows.filter(matches));
  return selected;
}

/** The order of lists and zips: type, then name (case ignored, then as written: names differing by case are two). */
const ordered = (select: ReturnType<typeof filesOf>) =>
  select
    .orderBy('f.file_type')
    .orderBy(sql`lower(f.file_name)`)
    .orderBy('f.file_name');

/** Files read at a time when field filters are run on their form values. */
const SCAN_PAGE = 1_000;

/**
 * Every file of a selection, in the list's order, a page at a time (each starting after the last file of the
 * previous one: names are unique within a type), for field filters, which run on the form values: memory and the
 * request thread are held one page at a time, whatever the number of files. Refused (400 BAD_FILES_QUERY) once the
 * filters' regular expressions have spent the selection's budget.
 */
async function* scanned(select: ReturnType<typeof filesOf>, budget: RegexBudget): AsyncGenerator<FileRow[]> {
  let after: FileRow | undefined;
  for (;;) {
    let page = ordered(select).limit(SCAN_PAGE);
    if (after)
      page = page.where(
        sql<boolean>`(f.file_type, lower(f.file_name), f.file_name) > (${after.file_type}, lower(${after.file_name}), ${after.file_name})`,
      );
    const rows = await page.execute();
    yield rows;
    const problem = overBudget(budget);
    if (problem) throw new InvalidInput(problem);
    if (rows.length < SCAN_PAGE) return;
    after = rows[rows.length - 1];
  }
}

/**
 * The statement of a selection, and the test of the form values its field filters make (null without one), which
 * are run on the rows read, with the budget its regular expressions share; `select` is null when the selection
 * names only ids that cannot exist.
 */
function selectionOf(ctx: ServerContext, application: ApplicationRow, query: FilesQuery) {
  let select = filesOf(ctx, application);
  const budget = regexBudget();
  if (query.filetype) select = select.where('f.file_type', '=', query.filetype);
  if (query.uuids.length) {
    const ids = query.uuids.filter(isUuid);
    select = ids.length ? select.where(sql<boolean>`f.id = any(${ids}::uuid[])`) : select;
    if (ids.length === 0) return { select: null, matches: null, budget };
  }
  if (query.fileNames.length) select = select.where(sql<boolean>`f.file_name = any(${query.fileNames}::text[])`);
  const matchers = new Map<string, (fields: Record<string, string>) => boolean>();
  for (const [fileType, filters] of Object.entries(query.fieldFilters)) {
    const type = application.model.additionalFiles.find((t) => t.name === fileType);
    if (!type || filters.length === 0) continue;
    const compiled = compileFieldFilters(type, filters, budget);
    if (!compiled.ok) throw new InvalidInput(compiled.problem);
    matchers.set(fileType, compiled.matches);
  }
  const matches = matchers.size ? (row: FileRow) => matchers.get(row.file_type)?.(row.fields) ?? true : null;
  return { select, matches, budget };
}

/**
 * A page of a selection and how many files it holds. Without a field filter the database counts and pages (a page
 * of 30 read 2,500 files to give 30); field filters are run on the form values, so with one every file of the
 * selection is read, a page at a time ({@link scanned}), and only the files of the page asked for are kept.
 */
async function selectFilesPage(
  ctx: ServerContext,
  application: ApplicationRow,
  query: FilesQuery,
): Promise<{ page: FileRow[]; total: number }> {
  const { select, matches, budget } = selectionOf(ctx, application, query);
  if (!select) return { page: [], total: 0 };
  if (matches) {
    const rowWindow = new RowWindow(query.offset, query.limit);
    const page: FileRow[] = [];
    for await (const rows of scanned(select, budget)) page.push(...rowWindow.keep(rows.filter(matches)));
    return { page, total: rowWindow.total };
  }
  let paged = ordered(select).offset(query.offset);
  if (query.limit !== null) paged = paged.limit(query.limit);
  const counted = await select
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirst();
  return { page: query.limit === 0 ? [] : await paged.execute(), total: Number(counted?.total ?? 0) };
}

const isEmptySelection = (query: FilesQuery) =>
  query.uuids.length === 0 && query.fileNames.length === 0 && query.filetype === null;

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

export async function findFile(
  ctx: ServerContext,
  application: ApplicationRow,
  fileType: string,
  id: string,
): Promise<FileRow> {
  const row = isUuid(id)
    ? await filesOf(ctx, application).where('f.id', '=', id).where('f.file_type', '=', fileType).executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id });
  return row;
}

/** One file with its form values and its type's form. */
export async function getAdditionalFile(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  id: string,
  locale: string,
): Promise<AdditionalFileDetail> {
  const type = fileTypeOf(application, fileType);
  const access = await requireFileReader(ctx, user, application);
  const row = await findFile(ctx, application, type.name, id);
  return {
    ...viewOf(row, access),
    format: { i18n: type.i18n, fields: type.fields },
    ...(await fieldChoicesOf(ctx, application, type, locale, valuesIn([row]), await rightsOf(ctx, user, application))),
  };
}

/** The bytes of one file, read slice by slice as they are sent (files reach 100 MB). */
export async function additionalFileContent(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  fileType: string,
  id: string,
) {
  const type = fileTypeOf(application, fileType);
  await requireFileReader(ctx, user, application);
  const row = await findFile(ctx, application, type.name, id);
  return {
    fileName: row.file_name,
    contentType: row.content_type,
    size: row.size,
    content: storedFile(ctx.db, row.content_id, row.size),
  };
}

/** Deletes the selected files, all or none: every one must be deletable by the caller. Answers their ids. */
export async function deleteAdditionalFiles(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  query: FilesQuery,
): Promise<string[]> {
  const access = await requireFileReader(ctx, user, application);
  if (isEmptySelection(query)) throw new Refusal('BAD_FILES_QUERY', { reason: 'emptySelection' });
  const rows = await selectFiles(ctx, application, query);
  if (rows.length === 0) throw new Refusal('NO_SUCH_ADDITIONAL_FILE', { id: query.uuids.join(',') });
  const refused = rows.find((row) => !mayDelete(access, row));
  if (refused) throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILE_DELETE', { fileName: refused.file_name });
  const ids = rows.map((row) => row.id);
  await ctx.db.transaction().execute(async (trx) => {
    await recordApplied(trx);
    await trx
      .deleteFrom('additional_files')
      .where('application_id', '=', application.id)
      .where(sql<boolean>`id = any(${ids}::uuid[])`)
      .execute();
  });
  return ids;
}
