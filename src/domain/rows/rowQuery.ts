import { holdsNulCharacter } from '../text/nulCharacter.ts';

/**
 * Which rows of a reference or data type to read, and in which order (the original's `downloadDatasetQuery`).
 * Shared by the consultation screens, the JSON/CSV/zip exports and the deletions.
 */
export interface ComponentFilter {
  componentKey: string;
  /** Exact values (natural keys for reference components, texts otherwise). */
  filters?: string[];
  /** Bounds for numbers, dates and texts, read by `readInterval` (intervals.ts). */
  intervalValues?: { from?: string; to?: string };
}

export interface ComponentOrder {
  componentKey: string;
  order: 'ASC' | 'DESC';
}

export interface RowQuery {
  offset?: number;
  limit?: number;
  rowIds?: string[];
  naturalKeys?: string[];
  componentFilters?: ComponentFilter[];
  componentOrderBy?: ComponentOrder[];
  outPut?: { locale?: string };
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;

export type RowQueryProblem = {
  code: 'BAD_ROW_QUERY' | 'MISSING_COMPONENT_KEY_COMPONENT' | 'FILTER_MISSING_FILTER_OR_INTERVAL';
  params: Record<string, unknown>;
};

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** One end of an interval: a text, or a number as scripts write them; false for anything else. */
function intervalEnd(value: unknown): string | undefined | false {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return false;
}

/**
 * The interval of a filter: `intervalValues`, or the original's `intervalsValues` holding one (several would ask
 * for rows in any of them, which Terrain does not answer); false when it is not one.
 */
function intervalOf(filter: Record<string, unknown>): { from?: string; to?: string } | undefined | false | 'several' {
  let interval = filter.intervalValues;
  if ((interval === undefined || interval === null) && Array.isArray(filter.intervalsValues)) {
    if (filter.intervalsValues.length > 1) return 'several';
    interval = filter.intervalsValues[0];
  }
  if (interval === undefined || interval === null) return undefined;
  if (typeof interval !== 'object' || Array.isArray(interval)) return false;
  const from = intervalEnd((interval as Record<string, unknown>).from);
  const to = intervalEnd((interval as Record<string, unknown>).to);
  if (from === false || to === false) return false;
  return { from, to };
}

/** The language of a locale as the original's scripts write it (`fr_FR`, `fr-FR`, `FR`): `fr`. */
function languageOf(locale: string): string {
  return /^([a-zA-Z]{2,3})(?:[-_].*)?$/.exec(locale)?.[1]?.toLowerCase() ?? locale;
}

/**
 * The rows a read selects: only the first selector given counts, as in the original (naturalKeys, then rowIds, then
 * componentFilters), and within a filter its interval comes before its values; a script written for it got those
 * rows, not fewer. Deletions read the query as sent, and refuse filters beside keys rather than ignore them.
 */
export function withOriginalPrecedence(query: RowQuery): RowQuery {
  const { rowIds, naturalKeys, componentFilters, ...rest } = query;
  if (naturalKeys?.length) return { ...rest, naturalKeys };
  if (rowIds?.length) return { ...rest, rowIds };
  if (!componentFilters) return rest;
  return {
    ...rest,
    componentFilters: componentFilters.map(({ filters, intervalValues, componentKey }) =>
      intervalValues?.from || intervalValues?.to || !filters?.length
        ? { componentKey, ...(intervalValues ? { intervalValues } : {}) }
        : { componentKey, filters },
    ),
  };
}

/**
 * Components one query may sort by. An export's cursor nests one condition per sorted component, and the embedded
 * database refused a statement nested about 140 deep: far above what a person sorts by, far below that limit.
 */
export const MAX_SORTED_COMPONENTS = 50;

/** Reads a query sent as JSON text; answers the query or the first problem with it. */
export function readRowQuery(
  text: string | undefined,
): { ok: true; query: RowQuery } | { ok: false; problem: RowQueryProblem } {
  if (text === undefined || text === '' || text === 'undefined') return { ok: true, query: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'notJson' } } };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'notObject' } } };
  if (holdsNulCharacter(raw))
    return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'nulCharacter' } } };
  const source = raw as Record<string, unknown>;
  const query: RowQuery = {};
  const count = (key: 'offset' | 'limit') => {
    const value = source[key];
    if (value === undefined || value === null) return true;
    // Beyond the safe integers a count is no longer exact, and no table holds that many rows.
    if (!Number.isSafeInteger(value) || (value as number) < 0) return false;
    query[key] = value as number;
    return true;
  };
  if (!count('offset') || !count('limit'))
    return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'badPaging' } } };
  // A larger page was cut to this size without a word: a script asking for 5,000 rows got 1,000 and went on.
  if ((query.limit ?? 0) > MAX_LIMIT)
    return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'limitTooLarge', max: MAX_LIMIT } } };
  for (const key of ['rowIds', 'naturalKeys'] as const) {
    if (source[key] === undefined || source[key] === null) continue;
    if (!isStringList(source[key]))
      return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: `bad ${key}` } } };
    query[key] = source[key] as string[];
  }
  if (Array.isArray(source.componentFilters)) {
    query.componentFilters = [];
    for (const filter of source.componentFilters as unknown[]) {
      const f = (filter ?? {}) as Record<string, unknown>;
      if (typeof f.componentKey !== 'string' || f.componentKey === '')
        return { ok: false, problem: { code: 'MISSING_COMPONENT_KEY_COMPONENT', params: {} } };
      const filters =
        f.filters === undefined || f.filters === null ? undefined : isStringList(f.filters) ? f.filters : null;
      if (filters === null) return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'bad filters' } } };
      const interval = intervalOf(f);
      if (interval === false || interval === 'several')
        return {
          ok: false,
          problem: {
            code: 'BAD_ROW_QUERY',
            params: {
              reason: interval === 'several' ? 'severalIntervals' : 'badInterval',
              componentKey: f.componentKey,
            },
          },
        };
      if (!filters?.length && !interval)
        return {
          ok: false,
          problem: { code: 'FILTER_MISSING_FILTER_OR_INTERVAL', params: { componentKey: f.componentKey } },
        };
      query.componentFilters.push({
        componentKey: f.componentKey,
        ...(filters?.length ? { filters } : {}),
        ...(interval ? { intervalValues: interval } : {}),
      });
    }
  }
  if (Array.isArray(source.componentOrderBy)) {
    // A component sorted again after its first sort changes no order: it is dropped, so that an export's cursor
    // (one nested condition per sort) stays as deep as the components sorted, however long the list sent.
    const seen = new Set<string>();
    const orders = (source.componentOrderBy as Array<Record<string, unknown>>).filter(
      (o) => o && typeof o.componentKey === 'string' && !seen.has(o.componentKey) && seen.add(o.componentKey),
    );
    // `desc` was sorted ascending without a word; the original's enum reads ASC and DESC only.
    const direction = (order: unknown) =>
      order === undefined || order === null ? 'ASC' : typeof order === 'string' ? order.toUpperCase() : order;
    if (orders.some((o) => direction(o.order) !== 'ASC' && direction(o.order) !== 'DESC'))
      return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'badOrder' } } };
    query.componentOrderBy = orders.map((o) => ({
      componentKey: o.componentKey as string,
      order: direction(o.order) as 'ASC' | 'DESC',
    }));
    if (query.componentOrderBy.length > MAX_SORTED_COMPONENTS)
      return { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'tooManySorts' } } };
  }
  const output = source.outPut as { locale?: unknown } | undefined;
  if (output && typeof output.locale === 'string') query.outPut = { locale: languageOf(output.locale) };
  return { ok: true, query };
}
