import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { createEmbeddedDatabase } from './createEmbeddedDatabase.ts';

/** How often a broken embedded database may be reopened: a full disk would otherwise be retried on every request. */
const REOPEN_EVERY_MS = 5000;
/** A healthy embedded database answers `select 1` in well under this. */
const PROBE_MS = 2000;

/** Raised while the embedded database cannot be reopened; the HTTP layer answers it by its code (507 or 503). */
class EmbeddedDatabaseDown extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one session of the embedded PGlite, lent to one user at a time (a FIFO queue, as a pool of one would), and
 * healed when it breaks. When the disk fills while PGlite writes its log, its session is left unusable (every
 * statement then fails with "cannot drop active portal", or never answers) although the files on disk are sound.
 * After any failed statement the next borrower first asks `select 1`; when that fails the instance is dropped and
 * the folder opened again (its log replayed, as at a restart). While that is impossible (the disk still full),
 * borrowers are refused at once, never left waiting: 507 or 503 to the client, and a later request tries again.
 *
 * node-postgres' own pool is not used: it replaces a broken client with a new one over the same PGlite
 * connection object, which never connects, and every later request would wait for it.
 */
export async function openEmbeddedPool(dir: string): Promise<{ pool: PostgresPool; close(): Promise<void> }> {
  let session = await openSession(dir);
  let suspect = false;
  let down: { error: EmbeddedDatabaseDown; until: number } | undefined;
  let tail: Promise<void> = Promise.resolve();

  /** Waits for the session to be free (first come, first served); answers the function that frees it. */
  function borrow(): Promise<() => void> {
    let free!: () => void;
    const freed = new Promise<void>((resolve) => (free = resolve));
    const turn = tail.then(() => free);
    tail = tail.then(() => freed);
    return turn;
  }

  async function reopen() {
    // A throw-away database (tests) has nothing on disk to open again.
    if (dir.startsWith('memory://')) throw new EmbeddedDatabaseDown('57P03', 'the in-memory embedded database broke');
    const previous = session;
    await Promise.race([previous.close(), new Promise((resolve) => setTimeout(resolve, PROBE_MS))]).catch(() => undefined);
    try {
      session = await openSession(dir);
      down = undefined;
      suspect = false;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      // PGlite says little when it cannot start: a disk that filled is the usual reason here.
      down = { error: new EmbeddedDatabaseDown('53100', `the embedded database cannot be opened again: ${message}`), until: Date.now() + REOPEN_EVERY_MS };
      throw down.error;
    }
  }

  /** Makes the session usable before it is lent, or refuses. */
  async function heal() {
    if (down && Date.now() < down.until) throw down.error;
    if (down || session.broken) return reopen();
    if (!suspect) return;
    try {
      await Promise.race([session.client.query('select 1'), new Promise((_resolve, reject) => setTimeout(() => reject(new Error('no answer')), PROBE_MS))]);
      suspect = false;
    } catch {
      await reopen();
    }
  }

  return {
    pool: {
      async connect(): Promise<PostgresPoolClient> {
        const free = await borrow();
        try {
          await heal();
        } catch (error) {
          free();
          throw error;
        }
        const { client } = session;
        let released = false;
        return {
          query: ((...args: Parameters<pg.Client['query']>) => {
            const result = (client.query as (...a: unknown[]) => unknown)(...args);
            // Kysely sends statements (promises) and cursors; a rejected statement makes the session suspect.
            if (!(result instanceof Promise)) return result;
            result.catch(() => (suspect = true));
            // PGlite answers on this thread, in promises that chain as microtasks: a job writing 500,000 rows
            // statement after statement would never let the event loop read a socket (requests then waited
            // minutes, and Node reset them for headers not read within 60 s). Each answer waits for the loop's turn.
            return result.then(
              (value) => new Promise((resolve) => setImmediate(resolve, value)),
              (error: unknown) => new Promise((_resolve, reject) => setImmediate(reject, error)),
            );
          }) as PostgresPoolClient['query'],
          release() {
            if (released) return;
            released = true;
            free();
          },
        };
      },
      async end() {
        await session.client.end().catch(() => undefined);
      },
    },
    close: () => session.close(),
  };
}

interface Session {
  client: pg.Client;
  /** The client lost its connection object (PGlite failed under it). */
  readonly broken: boolean;
  close(): Promise<void>;
}

async function openSession(dir: string): Promise<Session> {
  await createEmbeddedDatabase(dir);
  const pglite = await PGlite.create(dir);
  const client = new pg.Client(createPgConfig(pglite) as pg.ClientConfig);
  let broken = false;
  client.on('error', () => (broken = true));
  client.on('end', () => (broken = true));
  await client.connect();
  return {
    client,
    get broken() {
      return broken;
    },
    async close() {
      await client.end().catch(() => undefined);
      await pglite.close();
    },
  };
}
