import { sql, type Kysely, type Transaction } from 'kysely';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Schema } from '../db/schema.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { LISTED, listedReadable, rowsPointingTo } from './pointingRows.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** Moved rows the refusal's message names. */
const NAMED = 5;

/**
 * Whether an upload to `entry` may give a stored row another hierarchical key: only a row placed within another
 * (a parent checker, or a reference of rows within its own rows) has a key made of more than its own natural key.
 */
export function mayMoveRows(entry: DataEntry): boolean {
  return entry.hierarchy.parents.length > 0 || entry.hierarchy.recursiveComponent !== null;
}

/**
 * The stored rows an upload gives another hierarchical key (moved under another parent), by their former key.
 * Other rows, versions and scopes keep the hierarchical keys they point to: a row moved under them would leave them
 * pointing to a key no row has, and rights matched on the old tree.
 */
export class MovedRows {
  /** Former hierarchical key → natural key of the row that held it. */
  readonly formerKeys = new Map<string, string>();

  constructor(
    private readonly applicationId: string,
    private readonly dataName: string,
  ) {}

  /**
   * Notes the rows of `batch` stored under another key, before the batch replaces them: one look-up by the
   * natural-key index per row of the batch, and only the rows whose key changes are brought back.
   */
  async note(db: Db, batch: CheckedBatch): Promise<void> {
    // Row by row (a lateral look-up by the natural-key index): a join could hash the whole entry at every batch.
    const moved = await sql<{ natural_key: string; hierarchical_key: string }>`
      select u.nk as natural_key, stored.hierarchical_key
      from unnest(${batch.columns.naturalKeys}::text[], ${batch.columns.hierarchicalKeys}::text[]) as u(nk, hk)
      cross join lateral (
        select hierarchical_key from data_rows
        where application_id = ${this.applicationId} and data_name = ${this.dataName}
          and natural_key = u.nk and file_id is null
        limit 1) as stored
      where stored.hierarchical_key <> u.hk`.execute(db);
    for (const row of moved.rows) this.formerKeys.set(row.hierarchical_key, row.natural_key);
  }
}

/**
 * Refuses the write (its transaction then changes nothing) when, once its rows are written, rows or versions
 * still point to a former key of a moved row: rows the file rewrote point to the new keys already, and a row the
 * file left out under a moved parent points to its parent's former key, so it is found too. The lists name only
 * what lies in entries the caller reads whole (`readsWhole`), as a deletion's refusal does.
 */
export async function refuseStalePointers(
  db: Db,
  applicationId: string,
  moved: MovedRows | undefined,
  readsWhole: (dataName: string) => boolean,
): Promise<void> {
  if (!moved || moved.formerKeys.size === 0) return;
  const formerKeys = [...moved.formerKeys.keys()];
  const rows = (await rowsPointingTo(db, applicationId, formerKeys)).map((row) => ({ ...row, keys: row.refs }));
  const versions = await versionsScopedOn(db, applicationId, formerKeys);
  if (rows.length === 0 && versions.length === 0) return;
  const pointedTo = new Set<string>();
  for (const row of [...rows, ...versions])
    for (const key of row.keys) if (moved.formerKeys.has(key)) pointedTo.add(moved.formerKeys.get(key)!);
  throw new Refusal('MOVED_REFERENCED_ROWS', {
    rows: [...pointedTo].sort().slice(0, NAMED).join(', '),
    referring: listedReadable(rows, readsWhole),
    versions: listedReadable(versions, readsWhole),
  });
}

/** A few versions (deposited files, published or not) whose scope names one of `keys`, named by their file. */
async function versionsScopedOn(db: Db, applicationId: string, keys: string[]) {
  const found = await sql<{ data_name: string; file_name: string; scope: Record<string, string> }>`
    select data_name, file_name, scope from deposit_files
    where application_id = ${applicationId}
      and exists (select 1 from jsonb_each_text(scope) as s where s.value = any(${keys}::text[]))
    limit ${LISTED}`.execute(db);
  return found.rows.map((r) => ({ dataName: r.data_name, naturalKey: r.file_name, keys: Object.values(r.scope) }));
}
