import { sql, type Kysely } from 'kysely';
import { vacuumEmbeddedTables } from './embeddedVacuum.ts';
import type { Schema } from './schema.ts';

/**
 * Gives back the space of writes rolled back for want of room. Their rows are dead but stay in the tables' files,
 * which only grow: the disk would stay full after the refusal. A vacuum of every table (the one the embedded
 * database runs now and then; tables the write did not touch cost next to nothing) frees them and cuts the empty
 * pages at the end of each table, where a refused load wrote; index pages it added stay, for the rows that come
 * next. The embedded database keeps its write-ahead log on the same disk: a checkpoint lets it delete the segments
 * the refused load filled (they are not kept for reuse, embeddedPool.ts). PostgreSQL's log is its own business.
 */
export async function giveSpaceBack(db: Kysely<Schema>, embedded: boolean): Promise<void> {
  await vacuumEmbeddedTables(db);
  if (embedded) await sql`checkpoint`.execute(db);
}
