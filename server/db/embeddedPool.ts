import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { createEmbeddedDatabase } from './createEmbeddedDatabase.ts';
import { queuePlace } from './sessionOrder.ts';

/** How often a broken embedded database may be reopened: a full disk would otherwise be retried on every request. */
const REOPEN_EVERY_MS = 5000;
/** A healthy embedded database answers `select 1` in well under this. */
const PROBE_MS = 2000;
/**
 * How long statements may follow one another on the server's thread before the event loop gets a turn. Every
 * turn lets requests in, and it is their arrival that orders the queue: with 20 ms the load's pages waited a
 * quarter longer than with 5 (docs/benchmarks.md).
 */
const YIELD_EVERY_MS = 5;

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
 * The one session of the embedded PGlite, lent to one user at a time (in the order of sessionOrder.ts), and
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
  let busy = false;
  /** Closed by the server's stop: a statement still asked for then (work cut by the stop) is refused, never reopens. */
  let closed = false;
  let lastYield = performance.now();
  /** Borrowers waiting, by their place in the queue (sessionOrder.ts). */
  const waiting: Array<{ key: number; lend: () => void }> = [];

  /** Hands the session to the next borrower, or marks it free. */
  function free() {
    const next = waiting.shift();
    if (next) next.lend();
    else busy = false;
  }

  /**
   * Waits for the session to be free (in the order of `queuePlace`); answers the function that gives it back, which
   * does so once however often it is called.
   */
  async function borrow(): Promise<() => void> {
    const { key, heldFrom } = queuePlace();
    if (busy) {
      await new Promise<void>((lend) => {
        let at = waiting.length;
        while (at > 0 && waiting[at - 1].key > key) at -= 1;
        waiting.splice(at, 0, { key, lend });
      });
    }
    busy = true;
    const counted = heldFrom(performance.now());
    let given = false;
    return () => {
      if (given) return;
      given = true;
      counted();
      free();
    };
  }

  async function reopen() {
    // A throw-away database (tests) has nothing on disk to open again.
    if (dir.startsWith('memory://')) throw new EmbeddedDatabaseDown('57P03', 'the in-memory embedded database broke');
    const previous = session;
    // The broken instance may fail or never answer its close: it is dropped either way, and its folder opened anew.
    await Promise.race([previous.close(), new Promise((resolve) => setTimeout(resolve, PROBE_MS))]).catch(
      () => undefined,
    );
    try {
      session = await openSession(dir);
      down = undefined;
      suspect = false;
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      // PGlite says little when it cannot start: a disk that filled is the usual reason here.
      down = {
        error: new EmbeddedDatabaseDown('53100', `the embedded database cannot be opened again: ${message}`),
        until: Date.now() + REOPEN_EVERY_MS,
      };
      throw down.error;
    }
  }

  /** Makes the session usable before it is lent, or refuses. */
  async function heal() {
    if (closed) throw new EmbeddedDatabaseDown('57P01', 'the embedded database is closed: the server is stopping');
    if (down && Date.now() < down.until) throw down.error;
    if (down || session.broken) return reopen();
    if (!suspect) return;
    try {
      await Promise.race([
        session.client.query('select 1'),
        new Promise((_resolve, reject) => setTimeout(() => reject(new Error('no answer')), PROBE_MS)),
      ]);
      suspect = false;
    } catch {
      await reopen();
    }
  }

  return {
    pool: {
      async connect(): Promise<PostgresPoolClient> {
        const giveBack = await borrow();
        try {
          await heal();
        } catch (error) {
          giveBack();
          throw error;
        }
        const { client, statementName } = session;
        return {
          query: ((...args: Parameters<pg.Client['query']>) => {
            const [text, values] = args;
            const name =
              typeof text === 'string' && args.length <= 2 && !carriesDocument(values)
                ? statementName(text)
                : undefined;
            const result = name
              ? client.query({ name, text: text as string, values: values as unknown[] | undefined })
              : (client.query as (...a: unknown[]) => unknown)(...args);
            // Kysely sends statements (promises) and cursors; a rejected statement makes the session suspect.
            if (!(result instanceof Promise)) return result;
            result.catch(() => (suspect = true));
            // PGlite answers on this thread, in promises that chain as microtasks: a job writing 500,000 rows
            // statement after statement would never let the event loop read a socket (requests then waited
            // minutes, and Node reset them for headers not read within 60 s). So answers wait for the loop's turn
            // once the session has run for YIELD_EVERY_MS since the last: not after every statement, which
            // stretched a short upload transaction (and every page waiting for the session) over many turns.
            if (performance.now() - lastYield < YIELD_EVERY_MS) return result;
            return result.then(
              (value) =>
                new Promise((resolve) => setImmediate(() => ((lastYield = performance.now()), resolve(value)))),
              (error: unknown) =>
                new Promise((_resolve, reject) => setImmediate(() => ((lastYield = performance.now()), reject(error)))),
            );
          }) as PostgresPoolClient['query'],
          release: giveBack,
        };
      },
      async end() {
        closed = true;
        // Closing: a session already broken has nothing left to end.
        await session.client.end().catch(() => undefined);
      },
    },
    close: () => {
      closed = true;
      return session.close();
    },
  };
}

/** Statements longer than this are one-off writes and loads, not worth keeping prepared. */
const MAX_PREPARED_TEXT = 2_000;
/** Distinct statements kept prepared per session: texts whose arity varies (`in ($1, $2…)`) stay bounded. */
const MAX_PREPARED = 1_000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * Filters on a component (`values -> 'x'`) are served by partial indexes naming the application and entry as
 * literals: only a plan made for the parameters' values can use them, so those statements are planned each time.
 */
const PLANNED_EACH_TIME = /values\s*->/;

/** A parameter this long is a batch of rows (a bulk write: a document or the texts of its columns). */
const DOCUMENT_CHARACTERS = 10_000;
/**
 * Bulk writes carry their rows in long parameters: planning them is nothing next to running them, and kept prepared
 * they ran slower (a 1,000,000-row upload took 155 s instead of 129 s on PGlite).
 */
const carriesDocument = (values: unknown) =>
  Array.isArray(values) && values.some((value) => typeof value === 'string' && value.length > DOCUMENT_CHARACTERS);

/**
 * A name for the statement, so that the session parses and plans it once and then only binds it: on PGlite,
 * which runs every statement on the server's thread, that halves the cost of the small reads every request makes
 * (sessions, applications, rights). Undefined for statements better left unnamed.
 */
function statementNames(): (text: string) => string | undefined {
  const names = new Map<string, string>();
  return (text) => {
    const known = names.get(text);
    if (known) return known;
    if (
      names.size >= MAX_PREPARED ||
      text.length > MAX_PREPARED_TEXT ||
      !PREPARABLE.test(text) ||
      PLANNED_EACH_TIME.test(text)
    )
      return undefined;
    const name = `terrain_${names.size}`;
    names.set(text, name);
    return name;
  };
}

/**
 * The write-ahead log shares the database's disk. PostgreSQL keeps the log's old segments for reuse (renamed, never
 * freed) as long as its estimate of the next checkpoint's distance asks for them, and a load makes that estimate as
 * large as the load: after a refused upload, the disk stayed full of segments it no longer needed. Without reuse a
 * checkpoint deletes them (giveSpaceBack.ts); new segments are written as the log needs them.
 */
const LOG_SETTINGS = ['-c', 'wal_recycle=off'];

/**
 * PostgreSQL's default 128 MB of shared buffers live in PGlite's WebAssembly memory, in the server's process, and
 * are all touched when it starts. Pages beyond them are read from the operating system's file cache, which the
 * kernel gives back when memory runs short. Under the full-size load (docs/benchmarks.md), 64 MB kept the pages'
 * p95 (38 ms against 34) for 80 MB less memory; 32 MB saved 60 MB more but doubled it (81 ms).
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=64MB', ...LOG_SETTINGS];

interface Session {
  client: pg.Client;
  /** The prepared statement's name for a text, per session (statements live in their session). */
  statementName(text: string): string | undefined;
  /** The client lost its connection object (PGlite failed under it). */
  readonly broken: boolean;
  close(): Promise<void>;
}

async function openSession(dir: string): Promise<Session> {
  await createEmbeddedDatabase(dir);
  const pglite = await PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] });
  const client = new pg.Client(createPgConfig(pglite) as pg.ClientConfig);
  let broken = false;
  client.on('error', () => (broken = true));
  client.on('end', () => (broken = true));
  await client.connect();
  return {
    client,
    statementName: statementNames(),
    get broken() {
      return broken;
    },
    async close() {
      // The client may already have lost its connection (what `broken` says); the database is closed below anyway.
      await client.end().catch(() => undefined);
      await pglite.close();
    },
  };
}
