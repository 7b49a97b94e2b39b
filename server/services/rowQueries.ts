import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { Grant } from '../../src/domain/rights/authorization.ts';
import type { Checker, DataEntry } from '../../src/domain/configuration/model.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, withOriginalPrecedence, type RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { APPLIED_INTERVALS, readInterval } from '../../src/domain/rows/intervals.ts';
import { intervalCondition, valuesCondition } from './filterConditions.ts';
import type { ServerContext } from '../context.ts';
import type { Schema } from '../db/schema.ts';
import { InvalidInput, Refusal } from '../../src/domain/errors/refusal.ts';
import { INDEXED_FROM_ROWS, indexFilteredComponents, type FilteredComponent } from './filterIndexes.ts';
import { KeptResults } from './keptResults.ts';
import { timeScopeOf } from '../../src/domain/configuration/timeScope.ts';

export interface SelectedRow {
  id: string;
  natural_key: string;
  hierarchical_key: string;
  values: Record<string, unknown>;
  /** The row's values of the components the query orders by, as JSON text (pages read for exports only). */
  order_values?: Array<string | null>;
}

/** The checker of each stored key of an entry: components, pattern qualifiers and adjacents. */
export function storedKeys(entry: DataEntry): Map<string, Checker | null> {
  const keys = new Map<string, Checker | null>();
  for (const component of entry.components) {
    keys.set(component.key, component.checker);
    if (component.kind === 'pattern') {
      for (const qualifier of component.qualifiers) keys.set(qualifier.storedKey, qualifier.checker);
      for (const adjacent of component.adjacents) keys.set(adjacent.storedKey, adjacent.checker);
    }
  }
  return keys;
}

type Condition = Expression<SqlBool>;

/** Above this many keys, a reference filter's sub-trees are compared by their beginnings, not listed. */
export const LISTED_SUBTREE_KEYS = 1_000;

/**
 * The rows of a reference a filter names, as the original's reference filters take them (a value is the stored key
 * or a key it lies under), with natural keys read too, as the screens send them: a filter on a project's key takes
 * the rows of each of its sites. `listed`: the hierarchical keys of those rows and of every row below them, compared
 * with the stored keys as literal values, which the planner estimates (a sub-select it cannot). `under`: the keys
 * whose sub-trees hold more rows than that (a filter on the root of a taxonomy of a million taxa), compared by their
 * beginnings. Sub-trees are read through the hierarchical-key index (`key.` up to `key/`, the operators of its
 * text_pattern_ops).
 */
async function referencedKeys(
  db: Kysely<Schema>,
  applicationId: string,
  reference: string,
  named: readonly string[],
): Promise<{ listed: string[] } | { under: string[] }> {
  const { rows } = await sql<{ hierarchical_key: string; top: boolean }>`
    with named as (
      select hierarchical_key from data_rows
      where application_id = ${applicationId} and data_name = ${reference}
        and (natural_key = any(${named}::text[]) or hierarchical_key = any(${named}::text[]))
    ), tops as (
      select hierarchical_key as key from named union select unnest(${named}::text[])
    )
    select hierarchical_key, true as top from named
    union all
    (select d.hierarchical_key, false from tops join data_rows d
      on d.application_id = ${applicationId} and d.data_name = ${reference}
      and d.hierarchical_key ~>=~ (tops.key || '.') and d.hierarchical_key ~<~ (tops.key || '/')
      limit ${LISTED_SUBTREE_KEYS + 1})`.execute(db);
  const below = rows.filter((row) => !row.top).length;
  if (below <= LISTED_SUBTREE_KEYS) return { listed: [...new Set(rows.map((row) => row.hierarchical_key))] };
  return { under: [...new Set([...rows.filter((row) => row.top).map((row) => row.hierarchical_key), ...named])] };
}

/** A reference cell (or one of a MANY cell's keys) is one of `keys` or lies under one of them. */
function underOneOf(component: string, keys: string[]): Condition {
  const within = (one: RawBuilder<string>) =>
    sql<SqlBool>`exists (select from unnest(${keys}::text[]) as t(key)
      where ${one} = t.key or (${one} ~>=~ (t.key || '.') and ${one} ~<~ (t.key || '/')))`;
  const field = sql`values -> ${component}`;
  // Only an array's keys are listed: the function fails on any other value, and `and` does not promise an order.
  return sql<SqlBool>`(${within(sql<string>`values ->> ${component}`)} or case when jsonb_typeof(${field}) = 'array'
    then exists (select from jsonb_array_elements_text(${field}) as v(one) where ${within(sql<string>`v.one`)})
    else false end)`;
}

interface Conditions {
  conditions: Condition[];
  /** The components compared by an interval, which an index can serve. */
  intervals: FilteredComponent[];
}

/** The conditions of a query (and of the caller's row filter) on the rows of one entry; unknown components are refused. */
async function conditionsOf(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  sent: RowQuery,
  rights: RowFilter,
): Promise<Conditions> {
  const query = withOriginalPrecedence(sent);
  const checkers = storedKeys(entry);
  const known = (key: string) => {
    if (!checkers.has(key))
      throw new Refusal('UNKNOWN_COMPONENT', { component: key, knownComponents: [...checkers.keys()] });
    return checkers.get(key) ?? null;
  };
  const conditions: Condition[] = rights.kind === 'all' ? [] : [rowFilterSql(entry, rights) as Condition];
  const intervals: FilteredComponent[] = [];
  if (query.rowIds?.length) conditions.push(sql<SqlBool>`id::text = any(${query.rowIds})`);
  // As the original's selector: a row's natural key or its hierarchical key.
  if (query.naturalKeys?.length)
    conditions.push(
      sql<SqlBool>`(natural_key = any(${query.naturalKeys}) or hierarchical_key = any(${query.naturalKeys}))`,
    );
  for (const filter of query.componentFilters ?? []) {
    const checker = known(filter.componentKey);
    const field = sql`values -> ${filter.componentKey}`;
    if (filter.filters?.length) {
      if (checker?.kind === 'reference') {
        const keys = await referencedKeys(db, applicationId, checker.reference, filter.filters);
        if ('under' in keys) conditions.push(underOneOf(filter.componentKey, keys.under));
        else if (keys.listed.length === 0) conditions.push(sql<SqlBool>`false`);
        else if (checker.multiplicity === 'MANY') conditions.push(sql<SqlBool>`${field} ?| ${keys.listed}::text[]`);
        else conditions.push(valuesCondition(null, filter.componentKey, keys.listed));
      } else conditions.push(valuesCondition(checker, filter.componentKey, filter.filters));
    }
    const interval = readInterval(checker, filter.intervalValues?.from, filter.intervalValues?.to);
    if (interval.state === 'empty') continue;
    // As the original: an open end is open, equal ends are one value, and reversed ends or ends that are no
    // numbers or no dates are refused (ignored, they read every row).
    if (!APPLIED_INTERVALS.has(interval.state))
      throw new InvalidInput({
        code: 'BAD_ROW_QUERY',
        params: { reason: 'unusableInterval', componentKey: filter.componentKey, state: interval.state },
      });
    const { condition, expression } = intervalCondition(checker, filter.componentKey, interval.from, interval.to);
    conditions.push(condition);
    intervals.push({ component: filter.componentKey, expression });
  }
  for (const order of query.componentOrderBy ?? []) known(order.componentKey);
  return { conditions, intervals };
}

/**
 * Whether the entry's rows all come from deposited files, or none does: the page can then walk the natural-key
 * index of that kind of rows (both are partial indexes). Undefined when both kinds are stored (an entry whose
 * submission strategy changed), and the condition is left out.
 */
async function rowKind(db: Kysely<Schema>, applicationId: string, entry: DataEntry): Promise<Condition | undefined> {
  // Reference rows never come from deposited files.
  if (entry.kind === 'reference') return sql<SqlBool>`file_id is null`;
  const kinds = await sql<{ with_file: boolean; without_file: boolean }>`
    select exists (select 1 from data_rows where application_id = ${applicationId} and data_name = ${entry.name} and file_id is not null) as with_file,
           exists (select 1 from data_rows where application_id = ${applicationId} and data_name = ${entry.name} and file_id is null) as without_file`.execute(
    db,
  );
  const { with_file: withFile, without_file: withoutFile } = kinds.rows[0];
  if (withFile && withoutFile) return undefined;
  return withFile ? sql<SqlBool>`file_id is not null` : sql<SqlBool>`file_id is null`;
}

/**
 * Where a page of an export ended, to read the next one from there: the row's natural key and id, and (when the
 * query orders by components) its values of those components as JSON text, null where the row has none.
 */
export interface RowCursor {
  naturalKey: string;
  id: string;
  orderValues: Array<string | null>;
}

type Ordering = { componentKey: string; descending: boolean };

const orderingsOf = (query: RowQuery): Ordering[] =>
  (query.componentOrderBy ?? []).map((o) => ({ componentKey: o.componentKey, descending: o.order === 'DESC' }));

/**
 * The rows that come after the cursor in the page order (each component ascending or descending, rows without a
 * value last, then natural key and id): a row follows when its first differing sort value comes later. Written
 * out component by component because the directions may differ, which a row comparison cannot express.
 */
function afterCursor(orderings: readonly Ordering[], cursor: RowCursor, index = 0): RawBuilder<unknown> {
  if (index === orderings.length) return sql`(natural_key, id) > (${cursor.naturalKey}, ${cursor.id}::uuid)`;
  const { componentKey, descending } = orderings[index];
  const value = sql`values -> ${componentKey}`;
  const rest = afterCursor(orderings, cursor, index + 1);
  const seen = cursor.orderValues[index];
  if (seen === null) return sql`(${value} is null and ${rest})`;
  const later = descending ? sql`${value} < ${seen}::jsonb` : sql`${value} > ${seen}::jsonb`;
  return sql`(${later} or ${value} is null or (${value} = ${seen}::jsonb and ${rest}))`;
}

/** The cursor after a row read by {@link pageRows}. */
export function cursorAfter(row: SelectedRow): RowCursor {
  return { naturalKey: row.natural_key, id: row.id, orderValues: row.order_values ?? [] };
}

/**
 * The rows of a page: the conditions, the entry's kind of rows, the asked order, then by natural key. With `after`
 * the page starts after that row instead of at the query's offset, so that a long export reads each row once.
 */
async function pageRows(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  conditions: Condition[],
  kind: Condition | undefined,
  limit: number,
  after?: RowCursor,
): Promise<SelectedRow[]> {
  const all = kind ? [...conditions, kind] : [...conditions];
  const orderings = orderingsOf(query);
  if (after) all.push(afterCursor(orderings, after) as Condition);
  const where = all.length ? sql`and ${sql.join(all, sql` and `)}` : sql``;
  const orderValues = orderings.length
    ? sql`, array[${sql.join(
        orderings.map((o) => sql`(values -> ${o.componentKey})::text`),
        sql`, `,
      )}]::text[] as order_values`
    : sql``;
  const result = await sql<SelectedRow>`
    select id, natural_key, hierarchical_key, values ${orderValues}
    from data_rows
    where application_id = ${applicationId} and data_name = ${entry.name} ${where}
    order by ${sql.join([...orderOf(query), sql`natural_key asc`, sql`id asc`], sql`, `)}
    limit ${limit} offset ${after ? 0 : (query.offset ?? 0)}`.execute(db);
  return result.rows;
}

/** Rows are read this many at a time during an export: memory stays bounded whatever the entry's size. */
export const EXPORT_PAGE = 5000;

/**
 * Every row of one entry matching a query (its offset and limit ignored), a page at a time, for exports: filters
 * and order work on the JSONB values — exact values (references by the natural key of the row they point to),
 * number and date intervals (applied only when from < to). Each page starts after the last row of the previous one.
 * The query is checked, and the first page read, before the answer starts (unknown components refused), so a
 * download never starts with a 200 it cannot finish. With `within`, only the rows also meeting that condition (the
 * rows of one shape, for a file to load again).
 */
export async function matchingRowPages(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  filter: RowFilter = { kind: 'all' },
  within?: RawBuilder<boolean>,
): Promise<AsyncIterable<SelectedRow[]>> {
  const { conditions } = await conditionsOf(db, applicationId, entry, query, filter);
  if (within) conditions.push(within as Condition);
  const kind = await rowKind(db, applicationId, entry);
  const page = (after?: RowCursor) =>
    pageRows(db, applicationId, entry, { ...query, offset: 0 }, conditions, kind, EXPORT_PAGE, after);
  // The first page is read before the answer starts: a statement the database refuses is then answered as an
  // error, not as a 200 cut off after its first bytes.
  const first = await page();
  return (async function* () {
    let rows = first;
    for (;;) {
      if (rows.length > 0) yield rows;
      if (rows.length < EXPORT_PAGE) return;
      rows = await page(cursorAfter(rows[rows.length - 1]));
    }
  })();
}

/**
 * The distinct values of `expression` over the rows `matchingRowPages` reads (same query, rights and kind of rows),
 * at most `limit` of them: one pass in the database, whatever the number of rows.
 */
export async function matchingDistinct(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  filter: RowFilter,
  expression: RawBuilder<string>,
  limit: number,
): Promise<string[]> {
  const { conditions } = await conditionsOf(db, applicationId, entry, query, filter);
  const kind = await rowKind(db, applicationId, entry);
  const all = kind ? [...conditions, kind] : conditions;
  const where = all.length ? sql`and ${sql.join(all, sql` and `)}` : sql``;
  const result = await sql<{ value: string }>`
    select distinct ${expression} as value from data_rows
    where application_id = ${applicationId} and data_name = ${entry.name} ${where}
    limit ${limit}`.execute(db);
  return result.rows.map((row) => row.value);
}

/** A uuid's text is always this long: the matching ids of a query are kept as one string of them, end to end. */
const UUID_LENGTH = 36;
/** Filters matching at most this many rows have their matching ids kept; larger ones are read a page at a time. */
const MAX_KEPT_MATCHES = 20_000;

/**
 * What was already read, per entry write version: every write that changes an entry's rows raises its version
 * (refreshCount) in the transaction that writes, so a kept result never describes an older state. A query's conditions are part of the
 * key as the SQL they compile to, with the keys of the references they name resolved (a write to a reference
 * changes them). For a filtered or ordered query, the ids of all its matching rows in order are kept: its total and
 * every later page then come from them (a page is ten reads by primary key) instead of one scan of the entry per
 * page and one more for the total. Unfiltered pages walk the natural-key index and are kept as read. Each process
 * keeps its own, bounded (about 20 MB of ids at most).
 */
/** The matching ids of a query, or null when more rows match than are kept. */
const keptMatches = new KeptResults<string | null>(25);
const keptPages = new KeptResults<SelectedRow[]>(2000);
const keptTotals = new KeptResults<number>(2000);
const keptKinds = new KeptResults<Condition | null>(500);

function orderOf(query: RowQuery) {
  return (query.componentOrderBy ?? []).map((o) =>
    o.order === 'DESC'
      ? sql`values -> ${o.componentKey} desc nulls last`
      : sql`values -> ${o.componentKey} asc nulls last`,
  );
}

/**
 * The ids of every row matching the conditions, in the page order, end to end; undefined when there are too many.
 * Joined by the database: one value to read instead of thousands of rows.
 */
async function matchingIds(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  conditions: Condition[],
): Promise<string | undefined> {
  const where = conditions.length ? sql`and ${sql.join(conditions, sql` and `)}` : sql``;
  const result = await sql<{ ids: string | null; count: number }>`
    select string_agg(id::text, '' order by ${sql.join([...orderOf(query), sql`natural_key asc`, sql`id asc`], sql`, `)}) as ids, count(*)::int as count
    from (
      select id, natural_key, values from data_rows
      where application_id = ${applicationId} and data_name = ${entry.name} ${where}
      limit ${MAX_KEPT_MATCHES + 1}
    ) as matching`.execute(db);
  const { ids, count } = result.rows[0];
  if (count > MAX_KEPT_MATCHES) return undefined;
  return ids ?? '';
}

/** The rows of the given ids, in the order of the ids. */
async function rowsById(db: Kysely<Schema>, ids: string[]): Promise<SelectedRow[]> {
  if (ids.length === 0) return [];
  const result =
    await sql<SelectedRow>`select id, natural_key, hierarchical_key, values from data_rows where id = any(${ids}::uuid[])`.execute(
      db,
    );
  const byId = new Map(result.rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is SelectedRow => row !== undefined);
}

/** A page of the rows of one entry matching a query, and how many rows match in all. */
export async function readPage(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  filter: RowFilter = { kind: 'all' },
): Promise<{ rows: SelectedRow[]; totalRows: number }> {
  const { db } = ctx;
  const { conditions, intervals } = await conditionsOf(db, applicationId, entry, query, filter);
  const stored = await db
    .selectFrom('entry_counts')
    .select(['line_count', 'version'])
    .where('application_id', '=', applicationId)
    .where('data_name', '=', entry.name)
    .executeTakeFirst();
  if (Number(stored?.line_count ?? 0) >= INDEXED_FROM_ROWS)
    indexFilteredComponents(db, applicationId, entry.name, intervals, ctx.log);
  const entryKey = [applicationId, entry.name, stored ? String(stored.version) : 'never written'];
  const compiled = conditions.length ? sql.join(conditions, sql` and `).compile(db) : undefined;
  const queryKey = [...entryKey, compiled ? [compiled.sql, compiled.parameters] : [], query.componentOrderBy ?? []];
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const offset = query.offset ?? 0;

  if (conditions.length > 0 || query.componentOrderBy?.length) {
    const matches = await keptMatches.keep(
      JSON.stringify(queryKey),
      async () => (await matchingIds(db, applicationId, entry, query, conditions)) ?? null,
    );
    if (matches !== null) {
      const ids: string[] = [];
      for (let index = offset; index < offset + limit && (index + 1) * UUID_LENGTH <= matches.length; index += 1) {
        ids.push(matches.slice(index * UUID_LENGTH, (index + 1) * UUID_LENGTH));
      }
      return { rows: await rowsById(db, ids), totalRows: matches.length / UUID_LENGTH };
    }
  }

  const kind = await keptKinds.keep(
    JSON.stringify(entryKey),
    async () => (await rowKind(db, applicationId, entry)) ?? null,
  );
  const rows = await keptPages.keep(JSON.stringify([...queryKey, limit, offset]), () =>
    pageRows(db, applicationId, entry, query, conditions, kind ?? undefined, limit),
  );
  if (conditions.length === 0) return { rows, totalRows: Number(stored?.line_count ?? 0) };
  const totalRows = await keptTotals.keep(JSON.stringify(queryKey), async () => {
    const result = await sql<{ total: number }>`
      select count(*) as total from data_rows
      where application_id = ${applicationId} and data_name = ${entry.name} and ${sql.join(conditions, sql` and `)}`.execute(
      db,
    );
    return Number(result.rows[0]?.total ?? 0);
  });
  return { rows, totalRows };
}

/**
 * A row of `values ->> component` under one of the keys: the key itself, or below it (the key and a dot begin the
 * value). Keys of one length are compared together, so the value is read once per distinct length whatever the
 * number of keys: a user holding fifty sites costs a few comparisons with arrays, not fifty pattern matches.
 */
function underAnyKey(component: string, keys: readonly string[]): RawBuilder<unknown> {
  const value = sql`values ->> ${component}`;
  const byLength = new Map<number, string[]>();
  for (const key of keys) byLength.set(key.length, [...(byLength.get(key.length) ?? []), `${key}.`]);
  const below = [...byLength].map(
    ([length, prefixes]) => sql`left(${value}, ${length + 1}) = any(${prefixes}::text[])`,
  );
  return sql`(${sql.join([sql`${value} = any(${[...keys]}::text[])`, ...below], sql` or `)})`;
}

/**
 * The SQL condition of a row filter on `data_rows`: a row passes when one grant allows it — every restricted scope
 * component under one of the granted keys, and its period meeting the granted one. Grants that restrict the same
 * single component over the same period are one condition on the union of their keys.
 */
export function rowFilterSql(entry: DataEntry, filter: RowFilter): RawBuilder<boolean> {
  const timed = timeScopeOf(entry) !== null;
  if (filter.kind === 'all') return sql<boolean>`true`;
  if (filter.kind === 'none') return sql<boolean>`false`;
  const merged = new Map<string, Grant>();
  const grants: Grant[] = [];
  for (const grant of filter.grants) {
    const components = Object.keys(grant.scopes);
    if (components.length !== 1) {
      grants.push(grant);
      continue;
    }
    const group = JSON.stringify([components[0], grant.from, grant.to]);
    const known = merged.get(group);
    if (known)
      known.scopes[components[0]] = [...new Set([...known.scopes[components[0]], ...grant.scopes[components[0]]])];
    else merged.set(group, { ...grant, scopes: { [components[0]]: [...grant.scopes[components[0]]] } });
  }
  const clauses = [...merged.values(), ...grants].map((grant) => {
    const parts: Array<RawBuilder<unknown>> = Object.entries(grant.scopes).map(([component, keys]) =>
      underAnyKey(component, keys),
    );
    // Rows of an entry without a time scope have no period, which a period held does not narrow; an undated row
    // of an entry with one is outside every period.
    const undated = timed ? sql`false` : sql`period_start is null`;
    if (grant.from)
      parts.push(
        sql`(${undated} or coalesce(period_end, period_start) > ${`${grant.from}T00:00:00`}::timestamp or period_start >= ${`${grant.from}T00:00:00`}::timestamp)`,
      );
    if (grant.to) parts.push(sql`(${undated} or period_start < (${grant.to}::date + 1)::timestamp)`);
    return parts.length ? sql`(${sql.join(parts, sql` and `)})` : sql`true`;
  });
  return sql<boolean>`(${sql.join(clauses, sql` or `)})`;
}
