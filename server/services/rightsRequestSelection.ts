import { sql, type SelectQueryBuilder } from 'kysely';
import type { RightsRequestQuery } from '../../src/contract/rightsRequests.ts';
import { InvalidInput } from '../../src/domain/errors/refusal.ts';
import { budgetedSearch, type RegexBudget } from '../../src/domain/regex/searchBudget.ts';
import type { Schema, UserRow } from '../db/schema.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { RowWindow } from './rowWindow.ts';

/** The requests of an application joined to their requester. */
export type RequestSelect = SelectQueryBuilder<
  Schema & { r: Schema['rights_requests']; u: Schema['users'] },
  'r' | 'u',
  object
>;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The list's own order: newest first, ties broken by id. */
export const newestFirst = <S extends RequestSelect>(select: S) =>
  select.orderBy('r.created_at', 'desc').orderBy('r.id') as S;

/**
 * The filters of a list query the database runs: the caller's own requests unless they see all, ids, state, plain
 * text filters and the search. Regular expressions are run apart ({@link regexSearches}).
 */
export function filtered(
  select: RequestSelect,
  caller: UserRow,
  seesAll: boolean,
  query: RightsRequestQuery,
): RequestSelect {
  let result = select;
  if (!seesAll) result = result.where('r.user_id', '=', caller.id);
  if (query.uuids?.length) {
    const uuids = query.uuids.filter(isUuid);
    result = uuids.length
      ? result.where(sql<boolean>`r.id = any(${uuids}::uuid[])`)
      : result.where(sql<boolean>`false`);
  }
  if (typeof query.setted === 'boolean') result = result.where('r.setted', '=', query.setted);
  for (const filter of query.fieldFilters ?? []) {
    const text = filter.filter ?? '';
    if (!filter.field || text === '' || filter.isRegExp) continue;
    result = result.where(sql<string>`r.fields ->> ${filter.field}`, 'ilike', `%${escapeLike(text)}%`);
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    result = result.where((eb) =>
      eb.or([eb('u.login', 'ilike', pattern), eb('u.email', 'ilike', pattern), eb('r.comment', 'ilike', pattern)]),
    );
  }
  return result;
}

/** A regular-expression filter of the list, run on a form value. */
export interface FieldSearch {
  field: string;
  found: (value: string | undefined) => boolean;
}

/**
 * The regular-expression filters of a list query, spending `budget`. They ran in the database (`~*`), on the request
 * thread of the embedded one, for as long as a pattern took on every request; Terrain's linear engine runs them
 * with a budget instead, ignoring case as `~*` did. A pattern it cannot read is refused (400 BAD_REQUEST).
 */
export function regexSearches(query: RightsRequestQuery, budget: RegexBudget): FieldSearch[] {
  const searches: FieldSearch[] = [];
  for (const filter of query.fieldFilters ?? []) {
    const text = filter.filter ?? '';
    if (!filter.field || text === '' || !filter.isRegExp) continue;
    const found = budgetedSearch(`(?iu)${text}`, filter.field, budget);
    if (!found) throw new InvalidInput({ code: 'BAD_REQUEST', params: { parameter: 'params', field: filter.field } });
    searches.push({ field: filter.field, found });
  }
  return searches;
}

/** Requests read at a time when regular expressions run on their form values. */
const SCAN_PAGE = 1_000;

/**
 * The ids of the requests in `window` (list order) among those `matching` selects and every search finds, with the
 * count of them all. Requests are read a page at a time, each after the last of the previous one, holding only the
 * values searched; refused (400 BAD_REQUEST, `regexpBudget`) once the searches have spent the budget.
 */
export async function searchedPage(
  matching: RequestSelect,
  searches: readonly FieldSearch[],
  budget: RegexBudget,
  window: { offset: number; limit: number | null },
): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  const rowWindow = new RowWindow(window.offset, window.limit);
  let after: { at: string; id: string } | undefined;
  for (;;) {
    let page = newestFirst(
      matching.select([
        'r.id',
        sql<string>`r.created_at::text`.as('at'),
        sql<Array<string | null>>`jsonb_build_array(${sql.join(searches.map((s) => sql`r.fields ->> ${s.field}`))})`.as(
          'values',
        ),
      ]),
    ).limit(SCAN_PAGE);
    if (after)
      page = page.where(
        sql<boolean>`(r.created_at < ${after.at}::timestamptz or (r.created_at = ${after.at}::timestamptz and r.id > ${after.id}::uuid))`,
      );
    const rows = await page.execute();
    const found = rows.filter((row) => searches.every((search, index) => search.found(row.values[index] ?? undefined)));
    ids.push(...rowWindow.keep(found).map((row) => row.id));
    if (budget.exceeded !== undefined)
      throw new InvalidInput({
        code: 'BAD_REQUEST',
        params: { parameter: 'params', reason: 'regexpBudget', field: budget.exceeded },
      });
    if (rows.length < SCAN_PAGE) return { ids, total: rowWindow.total };
    after = { at: rows[rows.length - 1].at, id: rows[rows.length - 1].id };
  }
}
