import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { isDiskFull, type DiskRoom } from './diskRoom.ts';

/** A parameter this large (characters, or bytes) makes a write a bulk one: rows sent as one document, a file. */
const BULK_PARAMETER = 10_000;
/** An insert or an update, alone or as the last part of a `with` (a journaled batch: bulkJournal.ts). */
const WRITE = /^\s*(insert|update)\b|^\s*with\b[\s\S]*\b(insert\s+into|update)\b/i;

/** What a write carries in large parameters (characters count as bytes); 0 for any other statement. */
export function bulkBytes(text: unknown, values: unknown): number {
  if (typeof text !== 'string' || !WRITE.test(text) || !Array.isArray(values)) return 0;
  let bytes = 0;
  for (const value of values) {
    const size = typeof value === 'string' ? value.length : value instanceof Uint8Array ? value.byteLength : 0;
    if (size >= BULK_PARAMETER) bytes += size;
  }
  return bytes;
}

/**
 * The database's pool, keeping the reserve of its disk (diskRoom.ts). A bulk write (the rows of an upload, a
 * publication or a restore, a file) runs only when what it carries leaves the reserve free, checked before each
 * statement: a load that does not fit stops at the batch that would have reached the reserve, refused like a full
 * disk, and rolls back. Small writes (a session, a kept answer, a job's state) are never held back: the reserve is
 * theirs. A connection on which a write found no room (refused here, or by the database itself) calls `onFull` once
 * it is released, its transaction rolled back, so that the space of the rows written before is given back.
 */
export function guardBulkWrites(pool: PostgresPool, room: DiskRoom, onFull: () => void): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let full = false;
      const note = (error: unknown): never => {
        if (isDiskFull(error)) full = true;
        throw error;
      };
      return {
        query: ((...args: [string, unknown[]]) => {
          const bytes = bulkBytes(...args);
          if (bytes > 0)
            return room
              .require(bytes)
              .then(() => client.query(...args))
              .catch(note);
          // Cursors (a single argument) are answered at once, not in a promise.
          const result = client.query(...args) as unknown;
          return result instanceof Promise ? result.catch(note) : result;
        }) as PostgresPoolClient['query'],
        release() {
          client.release();
          if (full) onFull();
        },
      };
    },
    end: () => pool.end(),
  };
}
