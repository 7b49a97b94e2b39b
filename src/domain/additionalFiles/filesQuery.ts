import type { AdditionalFileType, FormField } from '../configuration/model';
import { compileDateChecker } from '../csv/dates';
import { readPeriodBound } from '../deposits/periodBound';
import type { DomainError } from '../errors';
import { budgetedSearch, regexBudget, type RegexBudget } from '../regex/searchBudget';
import { holdsNulCharacter } from '../text/nulCharacter';

/**
 * The selection of additional files a list, a zip or a deletion works on (the original's AdditionalFilesInfos):
 * ids, file names, a file type, and per type filters on the values of its form fields.
 */
export interface FieldFilter {
  field: string;
  /** Text the value contains (case ignored), or a regular expression found in it when `isRegExp`. */
  filter?: string | null;
  isRegExp?: boolean;
  /** Bounds, inclusive, for date and number fields; dates are written in `format`, else the field's pattern. */
  intervalValues?: { from?: string | null; to?: string | null } | null;
  format?: string | null;
}

export interface FilesQuery {
  uuids: string[];
  fileNames: string[];
  filetype: string | null;
  fieldFilters: Record<string, FieldFilter[]>;
  /** The page of a list: files skipped, and how many to give (null: all). */
  offset: number;
  limit: number | null;
}

/** The largest page a list gives. */
export const MAX_FILES_PAGE = 500;

export type FilesQueryProblem = DomainError<'BAD_FILES_QUERY'>;

const bad = (reason: string): { ok: false; problem: FilesQueryProblem } => ({
  ok: false,
  problem: { code: 'BAD_FILES_QUERY', params: { reason } },
});
const optionalText = (value: unknown) => value === undefined || value === null || typeof value === 'string';

/** A field filter as the query must give it: a field name, and texts (or nothing) where texts go. */
function isFieldFilter(value: unknown): value is FieldFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const filter = value as Record<string, unknown>;
  const interval = filter.intervalValues as Record<string, unknown> | null | undefined;
  return (
    typeof filter.field === 'string' &&
    optionalText(filter.filter) &&
    optionalText(filter.format) &&
    (filter.isRegExp === undefined || filter.isRegExp === null || typeof filter.isRegExp === 'boolean') &&
    (interval === undefined ||
      interval === null ||
      (typeof interval === 'object' &&
        !Array.isArray(interval) &&
        optionalText(interval.from) &&
        optionalText(interval.to)))
  );
}

const texts = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Reads the JSON of `params` (absent, empty or `undefined` is the empty selection). */
export function readFilesQuery(
  text: string | undefined | null,
): { ok: true; query: FilesQuery } | { ok: false; problem: FilesQueryProblem } {
  if (text === undefined || text === null || text.trim() === '' || text === 'undefined')
    return { ok: true, query: { uuids: [], fileNames: [], filetype: null, fieldFilters: {}, offset: 0, limit: null } };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return bad('json');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('object');
  // No column stores a NUL character: a name or type holding one (written \u0000 in the JSON, which the request's
  // own guard cannot see) is refused here, not by the database half-way through.
  if (holdsNulCharacter(raw)) return bad('nulCharacter');
  const value = raw as Record<string, unknown>;
  const fieldFilters: Record<string, FieldFilter[]> = {};
  const infos = value.additionalFilesInfos;
  if (infos !== undefined && infos !== null) {
    if (typeof infos !== 'object' || Array.isArray(infos)) return bad('additionalFilesInfos');
    for (const [type, info] of Object.entries(infos as Record<string, unknown>)) {
      const filters = (info as { fieldFilters?: unknown } | null)?.fieldFilters ?? [];
      if (!Array.isArray(filters) || !filters.every(isFieldFilter)) return bad('fieldFilters');
      fieldFilters[type] = filters;
    }
  }
  const filetype = value.filetype ?? value.fileType ?? null;
  const offset = value.offset ?? 0;
  const limit = value.limit ?? null;
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) return bad('offset');
  if (limit !== null && (!Number.isInteger(limit) || (limit as number) < 0 || (limit as number) > MAX_FILES_PAGE))
    return bad('limit');
  return {
    ok: true,
    query: {
      uuids: texts(value.uuids),
      fileNames: texts(value.fileNames),
      filetype: typeof filetype === 'string' && filetype !== '' ? filetype : null,
      fieldFilters,
      offset: offset as number,
      limit: limit as number | null,
    },
  };
}

/** The refusal of a selection whose regular expressions ran out of steps, or null. */
export function overBudget(budget: RegexBudget): FilesQueryProblem | null {
  if (budget.exceeded === undefined) return null;
  return { code: 'BAD_FILES_QUERY', params: { reason: 'regexpBudget', field: budget.exceeded } };
}

type ValueTest = (value: string | undefined) => boolean;

function intervalTest(field: FormField | undefined, filter: FieldFilter): ValueTest | FilesQueryProblem {
  const { from, to } = filter.intervalValues ?? {};
  if (!from && !to) return () => true;
  const checker = field?.checker;
  if (checker?.kind === 'integer' || checker?.kind === 'float') {
    const [low, high] = [from ? Number(from) : -Infinity, to ? Number(to) : Infinity];
    if (Number.isNaN(low) || Number.isNaN(high))
      return { code: 'BAD_FILES_QUERY', params: { reason: 'interval', field: filter.field } };
    return (value) =>
      value !== undefined &&
      value.trim() !== '' &&
      Number(value.replace(',', '.')) >= low &&
      Number(value.replace(',', '.')) <= high;
  }
  if (checker?.kind === 'date') {
    const ofValue = compileDateChecker(checker.pattern);
    const ofBound = filter.format ? compileDateChecker(filter.format) : ofValue;
    if (!ofValue || !ofBound) return { code: 'BAD_FILES_QUERY', params: { reason: 'format', field: filter.field } };
    // A bound is written in the filter's format, else as an ISO day; a day that does not exist is refused.
    const bound = (text: string | null | undefined) =>
      text
        ? (ofBound.isoOf(text) ?? (/^\d{4}-\d{2}-\d{2}$/.test(text) ? (readPeriodBound(text) ?? undefined) : undefined))
        : null;
    const [low, high] = [bound(from), bound(to)];
    if (low === undefined || high === undefined)
      return { code: 'BAD_FILES_QUERY', params: { reason: 'interval', field: filter.field } };
    return (value) => {
      const iso = value === undefined ? null : ofValue.isoOf(value);
      return iso !== null && (low === null || iso >= low) && (high === null || iso <= high);
    };
  }
  return { code: 'BAD_FILES_QUERY', params: { reason: 'interval', field: filter.field } };
}

function textTest(filter: FieldFilter, budget: RegexBudget): ValueTest | FilesQueryProblem {
  const wanted = filter.filter ?? '';
  if (wanted === '') return () => true;
  if (!filter.isRegExp) {
    const lower = wanted.toLowerCase();
    return (value) => value !== undefined && value.toLowerCase().includes(lower);
  }
  const found = budgetedSearch(wanted, filter.field, budget);
  return found ?? { code: 'BAD_FILES_QUERY', params: { reason: 'regexp', field: filter.field } };
}

/**
 * One test per filter of a file type, compiled once; a filter on an unknown field never matches. Regular
 * expressions spend `budget`, shared by the selection's filters: once it is spent they match nothing more, and the
 * caller refuses the selection ({@link overBudget}).
 */
export function compileFieldFilters(
  type: AdditionalFileType,
  filters: readonly FieldFilter[],
  budget: RegexBudget = regexBudget(),
): { ok: true; matches(fields: Record<string, string>): boolean } | { ok: false; problem: FilesQueryProblem } {
  const tests: Array<{ field: string; test: ValueTest }> = [];
  for (const filter of filters) {
    const field = type.fields.find((f) => f.name === filter.field);
    for (const test of [textTest(filter, budget), intervalTest(field, filter)]) {
      if (typeof test !== 'function') return { ok: false, problem: test };
      tests.push({ field: filter.field, test: field ? test : () => false });
    }
  }
  return { ok: true, matches: (fields) => tests.every(({ field, test }) => test(fields[field])) };
}
