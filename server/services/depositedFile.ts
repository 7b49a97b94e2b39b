import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * The size of a deposited file's parts: what the server holds of a deposit while it arrives, sent to the database
 * one part per statement.
 */
const PART_BYTES = 1024 * 1024;
/** Parts read per statement when the file is read back. */
const PARTS_READ = 4;

/** The parts of a deposit being received: written as its bytes come, the file's row written once it is accepted. */
export interface DepositParts {
  add(chunk: Uint8Array): Promise<void>;
  /** Writes what is left; answers the file's size. */
  end(): Promise<number>;
  /** Removes the parts written: the deposit was refused or its upload broke off. */
  discard(): Promise<void>;
}

export function writeDepositParts(db: Db, fileId: string): DepositParts {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let part = 0;
  let size = 0;
  let discarded = false;
  // A part still being written when the deposit is discarded would land after the parts are removed.
  let writing: Promise<unknown> = Promise.resolve();
  const write = (bytes: Uint8Array) => {
    if (discarded) return Promise.resolve();
    const written = db.insertInto('deposit_file_parts').values({ file_id: fileId, part, bytes }).execute();
    part += 1;
    writing = written.catch(() => undefined);
    return written;
  };
  return {
    async add(chunk) {
      held.push(chunk);
      heldBytes += chunk.byteLength;
      size += chunk.byteLength;
      if (heldBytes < PART_BYTES) return;
      const whole = held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes);
      let start = 0;
      for (; whole.byteLength - start >= PART_BYTES; start += PART_BYTES)
        await write(whole.subarray(start, start + PART_BYTES));
      held = start < whole.byteLength ? [whole.subarray(start)] : [];
      heldBytes = whole.byteLength - start;
    },
    async end() {
      if (heldBytes > 0 || part === 0) await write(Buffer.concat(held, heldBytes));
      held = [];
      heldBytes = 0;
      return size;
    },
    async discard() {
      discarded = true;
      held = [];
      await writing;
      await db.deleteFrom('deposit_file_parts').where('file_id', '=', fileId).execute();
    },
  };
}

/**
 * The bytes of a deposited file, a few parts at a time: a 200 MB deposit is never one value in memory, and the
 * session (the embedded database's only one) is lent for one statement at a time.
 */
export async function* depositedFile(db: Db, fileId: string, size: number): AsyncGenerator<Uint8Array> {
  let after = -1;
  let read = 0;
  for (;;) {
    const parts = await db
      .selectFrom('deposit_file_parts')
      .select(['part', 'bytes'])
      .where('file_id', '=', fileId)
      .where('part', '>', after)
      .orderBy('part')
      .limit(PARTS_READ)
      .execute();
    for (const { bytes } of parts) {
      read += bytes.byteLength;
      yield bytes;
    }
    if (parts.length < PARTS_READ) break;
    after = parts[parts.length - 1]!.part;
  }
  if (read !== size) throw new Error(`deposited file ${fileId} has ${read} bytes stored, ${size} expected`);
}

/**
 * How long the parts of a deposit without a file stay untouched before another instance takes its upload for
 * broken off: longer than any deposit takes to arrive, however slow its network.
 */
export const DEPOSIT_PARTS_IDLE_MS = 24 * 3600 * 1000;

/**
 * Removes the parts of deposits that never became a file (the server stopped while one arrived) once nothing has
 * been written to them for `idleMs`: another instance may still be receiving a deposit that has none yet.
 */
export async function removeAbandonedParts(db: Kysely<Schema>, idleMs: number): Promise<number> {
  const removed = await sql`
    delete from deposit_file_parts p
    where not exists (select 1 from deposit_files f where f.id = p.file_id)
      and not exists (
        select 1 from deposit_file_parts q
        where q.file_id = p.file_id and q.written_at > now() - make_interval(secs => ${idleMs / 1000}))`.execute(db);
  return Number(removed.numAffectedRows ?? 0);
}
