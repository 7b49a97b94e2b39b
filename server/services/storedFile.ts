import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** Stored files are read in slices of this size, never whole. */
const FILE_SLICE = 4 * 1024 * 1024;

/**
 * The bytes of an additional file, slice by slice: a 200 MB file is never one value in memory, and the session
 * (the embedded database's only one) is lent for one slice at a time. Deposits are kept in parts (depositedFile.ts).
 */
export async function* storedFile(db: Kysely<Schema>, id: string, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < size; start += FILE_SLICE) {
    const slice = await sql<{
      piece: Uint8Array;
    }>`select substring(content from ${start + 1}::int for ${FILE_SLICE}::int) as piece from additional_files where id = ${id}`.execute(
      db,
    );
    const piece = slice.rows[0]?.piece;
    if (!piece) throw new Error(`additional file ${id} vanished while it was read`);
    yield piece;
  }
}
