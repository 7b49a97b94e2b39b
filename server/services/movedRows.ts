import { sql, type Kysely, type Transaction } from 'kysely';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Schema } from '../db/schema.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { LISTED, listedReadable, rowsPointingTo } from './pointingRows.ts';
import { withRenamedScopeKeys, type AuthorizationRules } from '../../src/domain/rights/authorization.ts';
import { withRenamedAssociateKeys, type Associates } from '../../src/domain/additionalFiles/associates.ts';
import { raiseRightsVersion } from './authorizations.ts';

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

  /**
   * Former key → the key its row holds once the file is written, read again then: a row a file moved twice holds
   * its last key, and one moved back its own.
   */
  async renamed(db: Db): Promise<Map<string, string>> {
    const naturalKeys = [...new Set(this.formerKeys.values())];
    const now = await sql<{ natural_key: string; hierarchical_key: string }>`
      select natural_key, hierarchical_key from data_rows
      where application_id = ${this.applicationId} and data_name = ${this.dataName}
        and natural_key = any(${naturalKeys}::text[]) and file_id is null`.execute(db);
    const keyOf = new Map(now.rows.map((row) => [row.natural_key, row.hierarchical_key]));
    const renamed = new Map<string, string>();
    for (const [former, naturalKey] of this.formerKeys) {
      const key = keyOf.get(naturalKey);
      if (key !== undefined && key !== former) renamed.set(former, key);
    }
    return renamed;
  }
}

/**
 * Carries the moves of a write nothing in the data points to over to what names scope nodes by key: grants of
 * authorizations, rights requests (open or treated, so that one still shows what it asked) and additional files'
 * associations now name the moved rows by their new keys, in the write's last transaction. A grant names a place,
 * not the path to it: left on the former key it would cover nothing, and its holder lose the place without anyone
 * being told. Answers how many of each followed, or nothing when the write moved no row.
 */
export async function followMoves(db: Db, applicationId: string, moved: MovedRows | undefined) {
  if (!moved || moved.formerKeys.size === 0) return undefined;
  const renamed = await moved.renamed(db);
  if (renamed.size === 0) return undefined;
  const keys = [...renamed.keys()];
  const authorizations = await renameKeysIn(db, applicationId, keys, GRANTS.authorizations, (rules) =>
    withRenamedScopeKeys(rules as AuthorizationRules, renamed),
  );
  const rightsRequests = await renameKeysIn(db, applicationId, keys, GRANTS.rights_requests, (rules) =>
    withRenamedScopeKeys(rules as AuthorizationRules, renamed),
  );
  const additionalFiles = await renameKeysIn(db, applicationId, keys, GRANTS.additional_files, (associates) =>
    withRenamedAssociateKeys(associates as Associates, renamed),
  );
  // Rights worked out before are kept per rights version: those of the grants' holders changed.
  if (authorizations > 0) await raiseRightsVersion(db, applicationId);
  return { rows: renamed.size, authorizations, rightsRequests, additionalFiles };
}

/**
 * Where each table keeps the keys of the nodes it names: the column and the JSON path to them, as the table's index
 * of those keys holds them (migration 0029).
 */
const GRANTS = {
  authorizations: { table: 'authorizations', column: 'rules', path: '$.restricted.*[*].scopes.*[*]' },
  rights_requests: { table: 'rights_requests', column: 'rules', path: '$.restricted.*[*].scopes.*[*]' },
  additional_files: { table: 'additional_files', column: 'associates', path: '$.*.scopes.*[*]' },
} as const;

/** Rows one statement rewrites: its parameters stay small whatever the number of grants. */
const REWRITTEN_AT_ONCE = 500;

/**
 * Rewrites the rows of one table naming one of `keys` (`rename` answers their new value, or null when unchanged),
 * locked as they are read so that a concurrent save is not overwritten with what was read before it. Their
 * `updated_at` stays: nobody edited them. Answers how many were rewritten.
 */
async function renameKeysIn(
  db: Db,
  applicationId: string,
  keys: string[],
  { table, column, path }: (typeof GRANTS)[keyof typeof GRANTS],
  rename: (value: unknown) => object | null,
): Promise<number> {
  // The path written in the statement, not sent as a parameter: the expression is then the index's, whatever
  // plan the engine keeps for the statement.
  const found = await sql<{ id: string; value: unknown }>`
    select id, ${sql.ref(column)} as value from ${sql.table(table)}
    where application_id = ${applicationId}
      and jsonb_path_query_array(${sql.ref(column)}, ${sql.lit(path)}) ?| ${keys}::text[]
    for update`.execute(db);
  const changed = found.rows.flatMap((row) => {
    const value = rename(typeof row.value === 'string' ? JSON.parse(row.value) : row.value);
    return value ? [{ id: row.id, value: JSON.stringify(value) }] : [];
  });
  for (let start = 0; start < changed.length; start += REWRITTEN_AT_ONCE) {
    const part = changed.slice(start, start + REWRITTEN_AT_ONCE);
    await sql`
      update ${sql.table(table)} as named set ${sql.ref(column)} = renamed.value::jsonb
      from unnest(${part.map((row) => row.id)}::uuid[], ${part.map((row) => row.value)}::text[]) as renamed(id, value)
      where named.id = renamed.id`.execute(db);
  }
  return changed.length;
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
  const pointing = await rowsPointingTo(db, applicationId, formerKeys);
  const rows = pointing.map((row) => ({ ...row, keys: row.refs }));
  const versions = await versionsScopedOn(db, applicationId, formerKeys);
  if (rows.length === 0 && versions.length === 0) return;
  const pointedTo = new Set<string>();
  for (const row of [...rows, ...versions])
    for (const key of row.keys) if (moved.formerKeys.has(key)) pointedTo.add(moved.formerKeys.get(key)!);
  throw new Refusal('MOVED_REFERENCED_ROWS', {
    rows: [...pointedTo].sort().slice(0, NAMED).join(', '),
    // The rows pointed to are known through the pointing rows listed: past them, or past the names, there are more.
    more: pointedTo.size > NAMED || pointing.more ? 'yes' : 'no',
    referring: listedReadable(rows, readsWhole),
    referringMore: pointing.more,
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
