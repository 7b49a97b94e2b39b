import { sql } from 'kysely';
import type { RightsRequestQuery } from '../../src/contract/rightsRequests.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { rightsOf } from './authorizations.ts';
import { filtered, type RequestSelect } from './rightsRequestSelection.ts';
import {
  detailedRequests,
  requestValueLabels,
  requestView,
  treatsRequests,
  type DetailedRequest,
} from './rightsRequests.ts';

/** Requests read per statement when the list is written as it is read. */
const WHOLE_PAGE = 1_000;

/**
 * Whether a list is asked for whole without a regular expression: it is then written as it is read
 * ({@link wholeRightsRequestsList}). A refused expression must be a 400, which an answer already begun could not be.
 */
export const listedWhole = (query: RightsRequestQuery) =>
  (query.limit === undefined || query.limit === null) &&
  !(query.fieldFilters ?? []).some((filter) => filter.isRegExp && filter.field && (filter.filter ?? '') !== '');

/** The requests `matching` selects, a page at a time in the list's order, each page after the last of the one before. */
async function* requestPages(matching: RequestSelect): AsyncGenerator<DetailedRequest[]> {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    let page = detailedRequests(matching)
      .select(sql<string>`r.created_at::text`.as('at'))
      .limit(WHOLE_PAGE);
    if (after)
      page = page.where(
        sql<boolean>`(r.created_at < ${after.at}::timestamptz or (r.created_at = ${after.at}::timestamptz and r.id > ${after.id}::uuid))`,
      );
    const rows = await page.execute();
    if (rows.length > 0) yield rows;
    if (rows.length < WHOLE_PAGE) return;
    after = { at: rows[rows.length - 1]!.at, id: rows[rows.length - 1]!.id };
  }
}

/**
 * The list of rights requests asked for without `limit`, as the JSON text of `listRightsRequests`' answer, written a
 * page of requests at a time as they are read: the requests first, then their requesters and the labels of the
 * reference values they hold, each value once, then the count. Built whole, every request was held at once, read
 * by one statement. The labels are looked up after the last page in one statement, as before: looked up a page at
 * a time, each page's thousand values were too many for the planner to take the keys' indexes, and every page read
 * the whole reference.
 */
export async function wholeRightsRequestsList(
  ctx: ServerContext,
  caller: UserRow,
  application: ApplicationRow,
  query: RightsRequestQuery,
  locale: string,
): Promise<AsyncIterable<string>> {
  const seesAll = await treatsRequests(ctx, caller, application);
  const base = ctx.db
    .selectFrom('rights_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .where('r.application_id', '=', application.id) as RequestSelect;
  const pages = requestPages(filtered(base, caller, seesAll, query));
  const reader = await rightsOf(ctx, caller, application);
  const offset = query.offset ?? 0;
  // The first page is read before answering: a database that cannot answer is a refusal, not a list cut short.
  const first = await pages.next();
  async function* everyPage() {
    if (first.done) return;
    yield first.value;
    yield* pages;
  }
  return (async function* () {
    yield '{"rightsRequests":[';
    const users = new Map<string, { id: string; label: string }>();
    // Each value once, in the order it first appears: labelled after the last page, in one look-up as a page's are.
    const used = new Map<string, Set<string>>();
    let total = 0;
    for await (const rows of everyPage()) {
      const kept = rows.slice(Math.max(0, offset - total));
      if (kept.length)
        yield `${total > offset ? ',' : ''}${kept.map((row) => JSON.stringify(requestView(application, row))).join(',')}`;
      total += rows.length;
      for (const row of kept) {
        if (!users.has(row.user_id)) users.set(row.user_id, { id: row.user_id, label: row.login });
        for (const [field, value] of Object.entries(row.fields))
          if (typeof value === 'string') (used.get(field) ?? used.set(field, new Set()).get(field)!).add(value);
      }
    }
    const values = [...used].flatMap(([field, set]) => [...set].map((value) => ({ fields: { [field]: value } })));
    const valueLabels = await requestValueLabels(ctx, application, locale, values, reader);
    const tail = {
      users: [...users.values()],
      valueLabels,
      total,
      description: application.model.rightsRequest ?? null,
    };
    yield `],${JSON.stringify(tail).slice(1)}`;
  })();
}
