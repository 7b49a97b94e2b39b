import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import { guardBulkWrites } from './bulkWriteGuard.ts';
import type { DiskRoom } from './diskRoom.ts';
import { openEmbeddedPool } from './embeddedPool.ts';
import { giveSpaceBack } from './giveSpaceBack.ts';
import type { Schema } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';

export interface Database {
  db: Kysely<Schema>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; without it the embedded database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database, or `memory://` for a throw-away one. */
  pgliteDir?: string;
  /** The room on the database's disk: bulk writes keep its reserve, and give back their space when refused. */
  room?: DiskRoom;
}

// timestamptz values stay Date objects; bigint counts come back as numbers (they fit: row counts, sizes).
pg.types.setTypeParser(20, (value) => Number(value));

/** Connections of one instance's PostgreSQL pool. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * One Kysely interface over either PostgreSQL or the embedded PGlite: both go through node-postgres' Pool, so
 * the product runs the same SQL and the same code path on both. PGlite is a single connection, so its pool has
 * one client and requests queue for it (and it reopens itself when broken: see embeddedPool.ts). With a `room`,
 * either pool keeps the reserve of the database's disk (bulkWriteGuard.ts).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { room } = options;
  const guarded = (pool: PostgresPool, embedded: boolean, db: () => Kysely<Schema>) =>
    room ? guardBulkWrites(pool, room, () => room.giveBack(() => giveSpaceBack(db(), embedded))) : pool;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POSTGRES_POOL_SIZE });
    // A PostgreSQL restart kills idle clients; the pool must not crash the process, it reconnects on next use.
    pool.on('error', () => undefined);
    // A client in use (a transaction waiting for the next piece of an upload, say) is killed too: the pool only
    // listens to idle ones. Its query fails (answered 503) and the pool drops it when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db: Kysely<Schema> = new Kysely<Schema>({
      dialect: new PostgresDialect({ pool: guarded(pool, false, () => db) }),
    });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const dir = options.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) await mkdir(path.dirname(dir), { recursive: true });
  const embedded = await openEmbeddedPool(dir);
  const db: Kysely<Schema> = new Kysely<Schema>({
    dialect: new PostgresDialect({ pool: guarded(embedded.pool, true, () => db) }),
  });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      await embedded.close();
    },
  };
}

export async function migrateToLatest(db: Kysely<Schema>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}
