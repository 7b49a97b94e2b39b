import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { RowFilter } from '../../src/domain/rights/access.ts';
import type { Grant } from '../../src/domain/rights/authorization.ts';
import type { Checker, DataEntry } from '../../src/domain/configuration/model.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, type RowQuery } from '../../src/domain/rows/rowQuery.ts';
import type { Schema } from '../db/schema.ts';
import { ApiError } from '../http/apiError.ts';

export interface SelectedRow {
  id: string;
  natural_key: string;
  hierarchical_key: string;
  values: Record<string, unknown>;
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

const isNumeric = (checker: Checker | null | undefined) => checker?.kind === 'integer' || checker?.kind === 'float';

/** Whether an interval is a real one: both ends given and from before to (numbers compared as numbers). */
function usableInterval(checker: Checker | null | undefined, from?: string, to?: string): boolean {
  if (from === undefined || to === undefined || from === '' || to === '') return false;
  if (isNumeric(checker)) return Number.isFinite(Number(from)) && Number.isFinite(Number(to)) && Number(from) < Number(to);
  return from < to;
}

type Condition = Expression<SqlBool>;

/** The conditions of a query (and of the caller's row filter) on the rows of one entry; unknown components are refused. */
function conditionsOf(applicationId: string, entry: DataEntry, query: RowQuery, rights: RowFilter): Condition[] {
  const checkers = storedKeys(entry);
  const known = (key: string) => {
    if (!checkers.has(key)) throw new ApiError(400, 'UNKNOWN_COMPONENT', { component: key, knownComponents: [...checkers.keys()] });
    return checkers.get(key) ?? null;
  };
  const conditions: Condition[] = rights.kind === 'all' ? [] : [rowFilterSql(rights) as Condition];
  if (query.rowIds?.length) conditions.push(sql<SqlBool>`id::text = any(${query.rowIds})`);
  if (query.naturalKeys?.length) conditions.push(sql<SqlBool>`natural_key = any(${query.naturalKeys})`);
  for (const filter of query.componentFilters ?? []) {
    const checker = known(filter.componentKey);
    const field = sql`values -> ${filter.componentKey}`;
    const text = sql`values ->> ${filter.componentKey}`;
    if (filter.filters?.length) {
      if (checker?.kind === 'reference') {
        const targets = sql`(select t.hierarchical_key from data_rows t where t.application_id = ${applicationId} and t.data_name = ${checker.reference} and t.natural_key = any(${filter.filters}))`;
        conditions.push(
          checker.multiplicity === 'MANY'
            ? sql<SqlBool>`exists (select 1 from jsonb_array_elements_text(case when jsonb_typeof(${field}) = 'array' then ${field} else '[]'::jsonb end) e where e in ${targets})`
            : sql<SqlBool>`${text} in ${targets}`,
        );
      } else {
        conditions.push(sql<SqlBool>`(${text} = any(${filter.filters}) or (jsonb_typeof(${field}) = 'array' and ${field} ?| ${filter.filters}::text[]))`);
      }
    }
    const { from, to } = filter.intervalValues ?? {};
    if (filter.intervalValues && usableInterval(checker, from, to)) {
      if (isNumeric(checker)) {
        // One range condition (not "is a number" and "within the bounds"): the planner then estimates it as one
        // range, and walks the natural-key index for a first page instead of sorting every match.
        conditions.push(sql<SqlBool>`(case when jsonb_typeof(${field}) = 'number' then (${text})::numeric end) between ${Number(from)} and ${Number(to)}`);
      } else if (checker?.kind === 'date') {
        // The upper bound is compared on as many characters as it has: "2020-07-01" takes the whole day.
        conditions.push(sql<SqlBool>`substr(${text}, 6, 19) >= ${from} and substr(${text}, 6, ${Math.min(19, to!.length)}) <= ${to}`);
      } else {
        conditions.push(sql<SqlBool>`${text} between ${from} and ${to}`);
      }
    }
  }
  for (const order of query.componentOrderBy ?? []) known(order.componentKey);
  return conditions;
}

/**
 * Whether the entry's rows all come from deposited files, or none does: the page can then walk the natural-key
 * index of that kind of rows (both are partial indexes). Undefined when both kinds are stored (an entry whose
 * submission strategy changed), and the condition is left out.
 */
async function rowKind(db: Kysely<Schema>, applicationId: string, entry: DataEntry): Promise<Condition | undefined> {
  const kinds = await sql<{ with_file: boolean; without_file: boolean }>`
    select exists (select 1 from data_rows where application_id = ${applicationId} and data_name = ${entry.name} and file_id is not null) as with_file,
           exists (select 1 from data_rows where application_id = ${applicationId} and data_name = ${entry.name} and file_id is null) as without_file`.execute(db);
  const { with_file: withFile, without_file: withoutFile } = kinds.rows[0];
  if (withFile && withoutFile) return undefined;
  return withFile ? sql<SqlBool>`file_id is not null` : sql<SqlBool>`file_id is null`;
}

/** Where a page of an export ended, to read the next one from there (exports in natural-key order). */
export interface RowCursor {
  naturalKey: string;
  id: string;
}

/**
 * A page of the rows of one entry matching a query. Filters and order work on the JSONB values: exact values
 * (references by the natural key of the row they point to), number and date intervals (applied only when from <
 * to); rows come in the asked order, then by natural key. With `after` (and no component order) the page starts
 * after that row instead of at `offset`, so long exports never skip rows again and again.
 */
export async function selectRows(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  query: RowQuery,
  filter: RowFilter = { kind: 'all' },
  after?: RowCursor,
): Promise<SelectedRow[]> {
  const conditions = conditionsOf(applicationId, entry, query, filter);
  const kind = await rowKind(db, applicationId, entry);
  if (kind) conditions.push(kind);
  const orders = (query.componentOrderBy ?? []).map((o) =>
    o.order === 'DESC' ? sql`values -> ${o.componentKey} desc nulls last` : sql`values -> ${o.componentKey} asc nulls last`,
  );
  const keyset = after && orders.length === 0;
  if (keyset) conditions.push(sql<SqlBool>`(natural_key, id) > (${after.naturalKey}, ${after.id}::uuid)`);
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const where = conditions.length ? sql`and ${sql.join(conditions, sql` and `)}` : sql``;
  const result = await sql<SelectedRow>`
    select id, natural_key, hierarchical_key, values
    from data_rows
    where application_id = ${applicationId} and data_name = ${entry.name} ${where}
    order by ${sql.join([...orders, sql`natural_key asc`, sql`id asc`], sql`, `)}
    limit ${limit} offset ${keyset ? 0 : (query.offset ?? 0)}`.execute(db);
  return result.rows;
}

/**
 * Totals of readers whose rights restrict the rows, per entry write version: their filter cannot use the stored line
 * count, and the consultation asks for the same total at every page. Every write to an entry raises its version
 * (refreshCount), so a kept total never describes an older state. Only totals of the rights filter alone are kept
 * (a query filter may name rows of other entries, whose writes do not change this version). Each process keeps its
 * own, the oldest forgotten first.
 */
const restrictedTotals = new Map<string, number>();
const MAX_KEPT_TOTALS = 1000;

/**
 * How many rows of the entry match the query (paging left aside). Without any condition it is the stored line
 * count, kept with every write; otherwise the matching rows are counted.
 */
export async function countRows(db: Kysely<Schema>, applicationId: string, entry: DataEntry, query: RowQuery, filter: RowFilter = { kind: 'all' }): Promise<number> {
  const conditions = conditionsOf(applicationId, entry, query, filter);
  const rightsAlone = filter.kind === 'some' && conditions.length === 1;
  const stored =
    conditions.length === 0 || rightsAlone
      ? await db.selectFrom('entry_counts').select(['line_count', 'version']).where('application_id', '=', applicationId).where('data_name', '=', entry.name).executeTakeFirst()
      : undefined;
  if (conditions.length === 0) return Number(stored?.line_count ?? 0);
  // With the rights filter alone, the filter and the entry name the rows counted.
  const key = stored && filter.kind === 'some' ? JSON.stringify([applicationId, entry.name, stored.version, filter.grants]) : undefined;
  const kept = key === undefined ? undefined : restrictedTotals.get(key);
  if (kept !== undefined) return kept;
  const result = await sql<{ total: number }>`
    select count(*) as total from data_rows
    where application_id = ${applicationId} and data_name = ${entry.name} and ${sql.join(conditions, sql` and `)}`.execute(db);
  const total = Number(result.rows[0]?.total ?? 0);
  if (key !== undefined) {
    restrictedTotals.set(key, total);
    if (restrictedTotals.size > MAX_KEPT_TOTALS) restrictedTotals.delete(restrictedTotals.keys().next().value!);
  }
  return total;
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
  const below = [...byLength].map(([length, prefixes]) => sql`left(${value}, ${length + 1}) = any(${prefixes}::text[])`);
  return sql`(${sql.join([sql`${value} = any(${[...keys]}::text[])`, ...below], sql` or `)})`;
}

/**
 * The SQL condition of a row filter on `data_rows`: a row passes when one grant allows it — every restricted scope
 * component under one of the granted keys, and its period meeting the granted one. Grants that restrict the same
 * single component over the same period are one condition on the union of their keys.
 */
export function rowFilterSql(filter: RowFilter): RawBuilder<boolean> {
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
    if (known) known.scopes[components[0]] = [...new Set([...known.scopes[components[0]], ...grant.scopes[components[0]]])];
    else merged.set(group, { ...grant, scopes: { [components[0]]: [...grant.scopes[components[0]]] } });
  }
  const clauses = [...merged.values(), ...grants].map((grant) => {
    const parts: Array<RawBuilder<unknown>> = Object.entries(grant.scopes).map(([component, keys]) => underAnyKey(component, keys));
    if (grant.from) parts.push(sql`(period_start is null or coalesce(period_end, period_start) > ${`${grant.from}T00:00:00`}::timestamp or period_start >= ${`${grant.from}T00:00:00`}::timestamp)`);
    if (grant.to) parts.push(sql`(period_start is null or period_start < (${grant.to}::date + 1)::timestamp)`);
    return parts.length ? sql`(${sql.join(parts, sql` and `)})` : sql`true`;
  });
  return sql<boolean>`(${sql.join(clauses, sql` or `)})`;
}
