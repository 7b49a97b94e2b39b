import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** Pointing rows a refusal looks at and lists: enough to find the data to change, never all of a large reference's. */
export const LISTED = 50;

/** The rows found, and whether there may be more than a refusal lists. */
export type PointingRows = PointingRow[] & { more: boolean };

export interface PointingRow {
  dataName: string;
  naturalKey: string;
  /** The hierarchical keys its stored references hold. */
  refs: string[];
}

/**
 * A few rows of the application whose stored references hold one of `keys` (rows `excluding` names set aside), one
 * more than `LISTED` when there are more (see `listedReadable`): the
 * GIN index of `refs` looked up key by key until enough are found, each key's rows then kept to the application's.
 * Given the application in the same condition, or the keys all at once, the planner read the application's rows one
 * after the other instead (every row of it when none points to them): its index on the application looked cheaper.
 * A deletion and an upload moving rows both ask it, so that neither reads more than the rows it lists.
 */
export async function rowsPointingTo(
  db: Db,
  applicationId: string,
  keys: string[],
  excluding: string[] = [],
): Promise<PointingRows> {
  if (keys.length === 0) return Object.assign([], { more: false });
  // `offset 0` keeps the application's condition out of the key's look-up.
  const found = await sql<{ data_name: string; natural_key: string; refs: string[] }>`
    select pointing.data_name, pointing.natural_key, pointing.refs
    from unnest(${keys}::text[]) as k(key)
    cross join lateral (
      select id, application_id, data_name, natural_key, refs from data_rows
      where refs <> '{}' and refs @> array[k.key]
      offset 0) as pointing
    where pointing.application_id = ${applicationId} and not (pointing.id = any(${excluding}::uuid[]))
    limit ${LISTED + 1}`.execute(db);
  const unique = new Map(found.rows.map((r) => [`${r.data_name}\u0000${r.natural_key}`, r]));
  const rows = [...unique.values()].map((r) => ({ dataName: r.data_name, naturalKey: r.natural_key, refs: r.refs }));
  // Counted before rows met twice (through two keys, or in two versions) are merged: a row left unread is never
  // taken for none, at the price of a "…" that may end a list holding them all.
  return Object.assign(rows, { more: found.rows.length > LISTED });
}

/**
 * What a refusal may list of `found`: the rows of entries the caller reads whole, by entry and natural key, at most
 * `LISTED`. The others still make the refusal; their keys would tell what the caller may not read.
 */
export const listedReadable = (
  found: Array<{ dataName: string; naturalKey: string }>,
  readsWhole: (dataName: string) => boolean,
) =>
  found
    .slice(0, LISTED)
    .filter((row) => readsWhole(row.dataName))
    .map(({ dataName, naturalKey }) => ({ dataName, naturalKey }))
    .sort((a, b) => a.dataName.localeCompare(b.dataName) || a.naturalKey.localeCompare(b.naturalKey));
