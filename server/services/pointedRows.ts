import { sql, type Kysely, type Transaction } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { checkedAgainst } from '../../src/domain/configuration/checkedAgainst.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Schema } from '../db/schema.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** Keys a refusal names: enough to find the lines of the file to look at. */
const NAMED = 5;

/** Pointed keys looked for by one statement of `refuseMissing`. */
export const POINTED_KEYS_BATCH = 10_000;

/** The entries the rows of `entry` may point to (those `referenceRowsFor` reads for the check). */
export function pointedEntries(model: ApplicationModel, entry: DataEntry): string[] {
  return checkedAgainst(entry).filter((name) => model.data.some((d) => d.name === name));
}

/** The advisory lock of an entry's writers (`claimEntryForWrite` takes it alone, as the entry's one writer). */
export const entryLockKey = (applicationId: string, dataName: string) =>
  sql`hashtextextended(${`${applicationId}/${dataName}`}, 0)`;

/**
 * The keys the rows of a write point to, noted batch by batch and found again at its end: the reference rows a file
 * is checked against are read when its upload begins, and a row deleted, or moved under another parent, before the
 * write holds their entries would leave the file's rows pointing to a key no row has (and rights matched on a
 * place that is no longer there).
 */
export class PointedKeys {
  private readonly keys = new Set<string>();

  constructor(
    private readonly applicationId: string,
    private readonly names: readonly string[],
  ) {}

  /**
   * Keeps deletions and moves of the pointed rows out until the transaction ends (PostgreSQL): a write pointing to
   * them holds their entries' lock shared, their writers take it alone. Taken in name order, after the writer's own
   * entry, so that two writers never wait for each other in turn (dependencies between entries have no cycle; its
   * own entry's lock, when it points to itself, is already its own).
   */
  async hold(trx: Transaction<Schema>): Promise<void> {
    for (const name of this.names)
      await sql`select pg_advisory_xact_lock_shared(${entryLockKey(this.applicationId, name)})`.execute(trx);
  }

  /** Notes the keys the rows of `batch` point to, as the database reads the batch's column. */
  async note(db: Db, batch: CheckedBatch): Promise<void> {
    if (this.names.length === 0) return;
    const found = await sql<{ key: string }>`
      select distinct k.key from unnest(${batch.columns.refs}::text[]) as r(refs), unnest(r.refs::text[]) as k(key)`.execute(
      db,
    );
    for (const row of found.rows) this.keys.add(row.key);
  }

  /**
   * Refuses the write (its transaction then changes nothing) when a key it points to is no row's any more: run in
   * its last transaction, once its own rows are written (a row may point to another of the same file), and on
   * PostgreSQL while it holds the pointed entries (`hold`), so that nothing removes them before it
   * commits. On the embedded database transactions follow one another: a deletion coming later sees the rows.
   */
  async refuseMissing(db: Db): Promise<void> {
    if (this.keys.size === 0) return;
    // A statement per batch of keys: a write pointing to a million keys sent them all as one parameter, on the
    // embedded database's thread. The first keys missing of all, in the database's order, are among each batch's
    // first: read again together, they are those named.
    const keys = [...this.keys];
    let missing: string[] = [];
    for (let start = 0; start < keys.length; start += POINTED_KEYS_BATCH)
      missing.push(...(await this.missingOf(db, keys.slice(start, start + POINTED_KEYS_BATCH))));
    if (missing.length === 0) return;
    if (keys.length > POINTED_KEYS_BATCH) missing = await this.missingOf(db, missing);
    throw new Refusal('POINTED_ROWS_CHANGED', {
      keys: missing.slice(0, NAMED).join(', '),
      more: missing.length > NAMED ? 'yes' : 'no',
    });
  }

  /** The first keys of `keys` no row of the pointed entries has, in the database's order: one more than named. */
  private async missingOf(db: Db, keys: readonly string[]): Promise<string[]> {
    const missing = await sql<{ key: string }>`
      select k.key from unnest(${keys}::text[]) as k(key)
      where not exists (
        select 1 from data_rows
        where application_id = ${this.applicationId} and data_name = any(${this.names}::text[]) and hierarchical_key = k.key)
      order by k.key
      limit ${NAMED + 1}`.execute(db);
    return missing.rows.map((row) => row.key);
  }
}
