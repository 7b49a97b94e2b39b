import { sql } from 'kysely';
import { compileFieldFilters, overBudget, type FilesQuery } from '../../src/domain/additionalFiles/filesQuery.ts';
import { regexBudget, type RegexBudget } from '../../src/domain/regex/searchBudget.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { InvalidInput } from '../../src/domain/errors/refusal.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { filesOf, type FileRow } from './additionalFileRows.ts';
import { RowWindow } from './rowWindow.ts';

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
export async function* scanned(select: ReturnType<typeof filesOf>, budget: RegexBudget): AsyncGenerator<FileRow[]> {
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
export function selectionOf(ctx: ServerContext, application: ApplicationRow, query: FilesQuery) {
  let select = filesOf(ctx, application);
  const budget = regexBudget();
  if (query.filetype) select = select.where('f.file_type', '=', query.filetype);
  if (query.uuids.length) {
    const ids = query.uuids.filter(isUuid);
    select = ids.length ? select.where(sql<boolean>`f.id = any(${ids}::uuid[])`) : select;
    if (ids.length === 0) return { select: null, matches: null, budget };
  }
  if (query.fileNames.length) {
    // A name is the one its user reads: composed, or decomposed as macOS writes names, the same name.
    const spellings = [...new Set(query.fileNames.flatMap((name) => [name.normalize('NFC'), name.normalize('NFD')]))];
    select = select.where(sql<boolean>`f.file_name = any(${spellings}::text[])`);
  }
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
export async function selectFilesPage(
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

export const isEmptySelection = (query: FilesQuery) =>
  query.uuids.length === 0 && query.fileNames.length === 0 && query.filetype === null;
