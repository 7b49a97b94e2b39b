import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';
import type { ServerContext } from '../context.ts';
import { isDiskFull } from '../db/diskRoom.ts';
import { giveSpaceBack } from '../db/giveSpaceBack.ts';
import { asBulkWork } from '../db/sessionOrder.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * The size of a stored file's parts: what the server holds of a deposit while it arrives, sent to the database one
 * part per statement. A file is never one value: the driver would send it as hexadecimal text, twice its size.
 */
const PART_BYTES = 1024 * 1024;
/** Parts read per statement when the file is read back. */
const PARTS_READ = 4;

/**
 * The parts of a file being stored: written as its bytes come (a deposit's row is written once it is accepted), or
 * within the transaction that writes its row.
 */
export interface FileParts {
  /** Each call awaited before the next: the bytes held are cut into parts in order. */
  add(chunk: Uint8Array): Promise<void>;
  /** Writes what is left; answers the file's size. */
  end(): Promise<number>;
  /** Adds every chunk, then ends: answers the file's size. */
  keep(chunks: AsyncIterable<Uint8Array>): Promise<number>;
  /** Passes each chunk on once added, so that the file is kept and read (checked) at once; `end` is the caller's. */
  passOn(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array>;
  /** Removes the parts written: the file was refused or its upload broke off. */
  discard(): Promise<void>;
  /** How many parts were sent to the database so far. */
  partsWritten(): number;
}

/**
 * `asBulk`: the file arrives with a request and is written outside a transaction; on the embedded database its writes
 * queue behind the pages asked for meanwhile (sessionOrder.ts). Writes within a transaction hold their session.
 */
export function writeFileParts(db: Db, contentId: string, { asBulk = false } = {}): FileParts {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let part = 0;
  let size = 0;
  let discarded = false;
  // A part still being written when the deposit is discarded would land after the parts are removed.
  let writing: Promise<unknown> = Promise.resolve();
  const write = (bytes: Uint8Array) => {
    if (discarded) return Promise.resolve();
    const insert = () => db.insertInto('file_parts').values({ content_id: contentId, part, bytes }).execute();
    const written = asBulk ? asBulkWork(insert) : insert();
    part += 1;
    writing = written.catch(() => undefined);
    return written;
  };
  const parts: FileParts = {
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
    async keep(chunks) {
      for await (const chunk of chunks) await parts.add(chunk);
      return parts.end();
    },
    async *passOn(chunks) {
      for await (const chunk of chunks) {
        await parts.add(chunk);
        yield chunk;
      }
    },
    partsWritten: () => part,
    async discard() {
      discarded = true;
      held = [];
      await writing;
      // Unless the file's row was written after all (its answer lost with the connection): its bytes stay.
      await sql`
        delete from file_parts where content_id = ${contentId}
          and not exists (select 1 from deposit_files where id = ${contentId})
          and not exists (select 1 from additional_files where content_id = ${contentId})`.execute(db);
    },
  };
  return parts;
}

/**
 * Removes the parts of a refused upload before its refusal is answered (when that fails, the sweep removes them
 * within a day). Parts committed before the disk filled are dead once discarded: their space is given back before
 * the refusal is answered (app.ts waits for it), as for a write rolled back; a refusal before any part (the room
 * check before reading) has nothing to give back.
 */
export async function discardRefusedParts(ctx: ServerContext, parts: FileParts, error: unknown): Promise<void> {
  await parts
    .discard()
    .catch((failure: unknown) =>
      ctx.log(`parts of a refused upload not removed (removed within a day): ${(failure as Error).message}`),
    );
  if (isDiskFull(error) && parts.partsWritten() > 0)
    ctx.room.giveBack(() => giveSpaceBack(ctx.db, !ctx.config.databaseUrl));
}

/**
 * The bytes of a stored file, a few parts at a time: a 200 MB deposit is never one value in memory, and the session
 * (the embedded database's only one) is lent for one statement at a time.
 */
export async function* storedFile(db: Db, contentId: string, size: number): AsyncGenerator<Uint8Array> {
  let after = -1;
  let read = 0;
  for (;;) {
    const parts = await db
      .selectFrom('file_parts')
      .select(['part', 'bytes'])
      .where('content_id', '=', contentId)
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
  if (read !== size) throw new Error(`stored file ${contentId} has ${read} bytes, ${size} expected`);
}

/** Files of at most this size (one part) are read and written with others, several to a statement. */
export const SMALL_FILE_BYTES = PART_BYTES;
/** The most bytes of small files one statement carries: what one read of a larger file's parts does. */
export const SMALL_FILES_STATEMENT_BYTES = PARTS_READ * PART_BYTES;

/** A stored file to read back: its content and size. */
export interface StoredContent {
  contentId: string;
  size: number;
}

/**
 * The bytes of several stored files, in their order, each as its parts: small files are read together, a few
 * megabytes to a statement (a backup of thousands of notes sent one statement per file), larger ones a few parts
 * at a time (storedFile). Each file's content is to be read before the next is asked for.
 */
export async function* storedFiles<T extends StoredContent>(
  db: Db,
  files: readonly T[],
): AsyncGenerator<[T, AsyncIterable<Uint8Array> | Uint8Array[]]> {
  for (let at = 0; at < files.length;) {
    const first = files[at]!;
    if (first.size > SMALL_FILE_BYTES) {
      yield [first, storedFile(db, first.contentId, first.size)];
      at += 1;
      continue;
    }
    const group = smallFilesFrom(files, at);
    const parts = await partsOfFiles(db, group);
    for (const file of group) yield [file, parts.get(file.contentId) ?? []];
    at += group.length;
  }
}

/** The small files from `at` on that one statement reads. */
function smallFilesFrom<T extends StoredContent>(files: readonly T[], at: number): T[] {
  const group: T[] = [];
  let bytes = 0;
  for (let next = at; next < files.length; next++) {
    const file = files[next]!;
    if (file.size > SMALL_FILE_BYTES || (group.length > 0 && bytes + file.size > SMALL_FILES_STATEMENT_BYTES)) break;
    group.push(file);
    bytes += file.size;
  }
  return group;
}

/** Every part of some small files, in order, by content; each file's bytes checked against its size. */
async function partsOfFiles(db: Db, files: readonly StoredContent[]): Promise<Map<string, Uint8Array[]>> {
  const rows = await db
    .selectFrom('file_parts')
    .select(['content_id', 'bytes'])
    .where(
      'content_id',
      'in',
      files.map((file) => file.contentId),
    )
    .orderBy('content_id')
    .orderBy('part')
    .execute();
  const parts = new Map<string, Uint8Array[]>();
  for (const row of rows) {
    const known = parts.get(row.content_id);
    if (known) known.push(row.bytes);
    else parts.set(row.content_id, [row.bytes]);
  }
  for (const file of files) {
    const read = (parts.get(file.contentId) ?? []).reduce((sum, bytes) => sum + bytes.byteLength, 0);
    if (read !== file.size) throw new Error(`stored file ${file.contentId} has ${read} bytes, ${file.size} expected`);
  }
  return parts;
}

/** A small stored file (a charter) whole. */
export async function wholeStoredFile(db: Db, contentId: string, size: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of storedFile(db, contentId, size)) parts.push(part);
  return Buffer.concat(parts, size);
}

/**
 * How long the parts of an upload without a file row stay untouched before another instance takes it for
 * broken off: longer than any deposit takes to arrive, however slow its network.
 */
export const UPLOAD_PARTS_IDLE_MS = 24 * 3600 * 1000;

/**
 * Removes the parts of deposits that never became a file (the server stopped while one arrived) once nothing has
 * been written to them for `idleMs`: another instance may still be receiving a deposit or an additional file that
 * has none yet.
 */
export async function removeAbandonedParts(db: Kysely<Schema>, idleMs: number): Promise<number> {
  const removed = await sql`
    delete from file_parts p
    where not exists (select 1 from deposit_files f where f.id = p.content_id)
      and not exists (select 1 from additional_files a where a.content_id = p.content_id)
      and not exists (
        select 1 from file_parts q
        where q.content_id = p.content_id and q.written_at > now() - make_interval(secs => ${idleMs / 1000}))`.execute(
    db,
  );
  return Number(removed.numAffectedRows ?? 0);
}
