/**
 * What the fault tests share: the database a killed server runs on (an embedded PGlite in its data folder, or a
 * database of our own PostgreSQL cluster), SQL on it straight from the test, the sizes, and a client that sends
 * its uploads through the product's own outbox (fake IndexedDB) and can be made to lose the server mid-body.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { TerrainDatabase } from '../../src/offline/db.ts';
import { createOutbox, type Outbox } from '../../src/offline/outbox.ts';
import { ownClusterUnavailable, startOwnCluster, type OwnCluster } from '../processes/postgresCluster.ts';
import type { Operator } from '../processes/operator.ts';
import type { TerrainProcessOptions } from '../processes/terrainServer.ts';

/**
 * Rows of the large reference upload and of the published version. `npm run faults` uses the sizes
 * (1,000,000 and 500,000); CI sets FAULT_ROWS to a reduced size to stay within its time budget.
 */
export const UPLOAD_ROWS = Number(process.env.FAULT_ROWS ?? 1_000_000);
export const PUBLISH_ROWS = Number(process.env.FAULT_ROWS ?? 500_000);

export type DatabaseKind = 'PGlite' | 'PostgreSQL';

/** The database a server process runs on, kept across its deaths, and SQL on it from the test. */
export interface FaultDatabase {
  kind: DatabaseKind;
  /** Options of the server processes: the same data folder (and database) every time. */
  serverOptions: TerrainProcessOptions;
  /**
   * SQL straight on the database. PGlite belongs to one process: call it only while no server runs (the test
   * opens the folder itself, which also replays the write-ahead log a killed server left).
   */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  cluster?: OwnCluster;
  destroy(): Promise<void>;
}

/** Why the PostgreSQL variants cannot run here, or undefined. */
export const postgresUnavailable = ownClusterUnavailable;

export async function faultDatabase(kind: DatabaseKind): Promise<FaultDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'terrain-faults-'));
  if (kind === 'PGlite') {
    return {
      kind,
      serverOptions: { dataDir },
      async sql(text, values) {
        const db = await PGlite.create(path.join(dataDir, 'db'));
        try {
          return (await db.query(text, values)).rows as never[];
        } finally {
          await db.close();
        }
      },
      destroy: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const cluster = await startOwnCluster();
  await cluster.sql('create database terrain');
  const url = cluster.url('terrain');
  return {
    kind,
    cluster,
    serverOptions: { dataDir, databaseUrl: url },
    async sql(text, values) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async destroy() {
      await cluster.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser tab's outbox (the product's own module over a fake IndexedDB) talking to whatever server `target`
 * names now, with the operator's session. `onSent(bytes)` is told how much of a request body has gone out, and the
 * rest waits for what it answers, so a test can kill the server in the middle of an upload. `advance` moves the
 * outbox's clock past any backoff.
 */
export function outboxClient(
  operator: Operator,
  onSent: (bytes: number, total: number) => Promise<void> | void = () => undefined,
) {
  let clock = Date.now();
  const fetchThrough = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${operator.token}`);
    const target = String(input).replace(/^https?:\/\/[^/]+/, operator.url);
    if (!request.body) return fetch(target, { method: request.method, headers });
    const body = await new Response(request.body).arrayBuffer();
    const size = body.byteLength;
    let sent = 0;
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        sent += chunk.byteLength;
        await onSent(sent, size);
        controller.enqueue(chunk);
      },
    });
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        // 256 kB pieces, as a network would deliver them.
        for (let start = 0; start < size; start += 1 << 18)
          controller.enqueue(new Uint8Array(body, start, Math.min(1 << 18, size - start)));
        controller.close();
      },
    });
    return fetch(target, {
      method: request.method,
      headers,
      body: source.pipeThrough(counting),
      duplex: 'half',
    } as RequestInit);
  };
  const db = new TerrainDatabase(`faults-${randomUUID()}`);
  const outbox: Outbox = createOutbox({
    db,
    fetch: fetchThrough as typeof fetch,
    now: () => clock,
    apiBase: `${operator.url}/api/v1`,
  });
  return {
    outbox,
    db,
    advance(ms = 10 * 60 * 1000) {
      clock += ms;
    },
  };
}
