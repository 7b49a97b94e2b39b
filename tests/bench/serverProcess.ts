/**
 * A Terrain server in its own Node process for the ingest and deposit benchmarks, so that its memory is its own
 * (peak RSS read from /proc) and the client generating and sending files does not share its event loop. It runs
 * on a scratch database of the PostgreSQL in DATABASE_URL when set, otherwise on an embedded PGlite in a
 * temporary folder. A plain COPY into an equivalent table of the same database gives the reference time.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PROCESS_ADMIN, TerrainProcess, signIn } from '../processes/terrainServer.ts';
import { scratchDatabase } from '../scratchDatabase.ts';

export type DatabaseKind = 'PostgreSQL' | 'PGlite';

/** The columns and indexes of `data_rows` (migrations 0004, 0005 and 0019), for the COPY baseline. */
export const BASELINE_TABLE = `
  create table copy_baseline (
    id uuid primary key,
    application_id uuid not null,
    data_name text not null,
    natural_key text not null,
    hierarchical_key text not null,
    values jsonb not null,
    refs text[] not null default '{}',
    line_number integer,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    file_id uuid,
    period_start timestamp,
    period_end timestamp
  );
  create unique index copy_baseline_natural_key on copy_baseline (application_id, data_name, natural_key) where file_id is null;
  create index copy_baseline_versioned_key on copy_baseline (application_id, data_name, natural_key) where file_id is not null;
  create index copy_baseline_hierarchical_key on copy_baseline (application_id, data_name, hierarchical_key text_pattern_ops);
  create index copy_baseline_refs on copy_baseline using gin (refs) where refs <> '{}';
  create index copy_baseline_file on copy_baseline (file_id) where file_id is not null;
  create index copy_baseline_period on copy_baseline (application_id, data_name, period_start) where period_start is not null;
`;

/** A plain session on the bench database: statements, and COPY of COPY-text bytes into a table. */
export interface DirectSession {
  exec(statement: string): Promise<void>;
  query<T = Record<string, unknown>>(statement: string, values?: unknown[]): Promise<T[]>;
  /** `copy <target> from stdin` (PostgreSQL) or `from '/dev/blob'` (PGlite), COPY text format. */
  copy(target: string, data: Buffer): Promise<void>;
}

export interface BenchServer {
  url: string;
  token: string;
  /** The server's data folder (its mail outbox is there). */
  dataDir: string;
  database: DatabaseKind;
  pid: number;
  /** Peak resident memory of the server process since the last `resetPeak`, in MB (VmHWM). */
  peakRssMb(): Promise<number>;
  rssMb(): Promise<number>;
  /** Starts a new peak measurement (Linux `clear_refs` 5); false when the kernel refuses. */
  resetPeak(): Promise<boolean>;
  /**
   * Runs a COPY of `text` (COPY text format) into a fresh table like data_rows (its columns and indexes), in one
   * transaction; answers the time in ms.
   */
  copyBaseline(columns: string, text: string): Promise<number>;
  /**
   * Runs `work` on a session of the server's database of its own (a pg client; on PGlite the server is stopped and
   * its files opened here, so this, like `copyBaseline`, comes last). Used for the floor and the write profile.
   */
  direct<T>(work: (db: DirectSession) => Promise<T>): Promise<T>;
  /** Sends SQL to the server's database (PostgreSQL only; PGlite is held by the server process). */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** A COPY FROM STDIN through node-postgres' own protocol support (no extra package): the text goes in 1 MB chunks. */
class CopyIn extends pg.Query {
  constructor(
    statement: string,
    private readonly data: Buffer,
  ) {
    super(statement);
  }
  handleCopyInResponse(connection: any): void {
    const stream = connection.stream as NodeJS.WritableStream & { writableNeedDrain?: boolean };
    const data = this.data;
    void (async () => {
      for (let start = 0; start < data.length; start += 1 << 20) {
        connection.sendCopyFromChunk(data.subarray(start, start + (1 << 20)));
        if (stream.writableNeedDrain) await new Promise((resolve) => stream.once('drain', resolve));
      }
      connection.endCopyFrom();
    })();
  }
}

async function copyInto(client: pg.Client, statement: string, data: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const query = client.query(
      new CopyIn(statement, data) as unknown as pg.QueryConfig,
    ) as unknown as NodeJS.EventEmitter;
    query.once('end', () => resolve());
    query.once('error', reject);
  });
}

/** The COPY baseline on a direct session: a fresh table like data_rows, one transaction, timed. */
export async function copyBaselineIn(db: DirectSession, postgres: boolean, columns: string, text: string) {
  const data = Buffer.from(text, 'utf8');
  await db.exec('drop table if exists copy_baseline');
  await db.exec(BASELINE_TABLE);
  const start = performance.now();
  if (postgres) await db.exec('begin');
  await db.copy(`copy_baseline (${columns})`, data);
  if (postgres) await db.exec('commit');
  const elapsed = performance.now() - start;
  await db.exec('drop table copy_baseline');
  return elapsed;
}

export async function startBenchServer(): Promise<BenchServer> {
  const database = process.env.DATABASE_URL
    ? await scratchDatabase(process.env.DATABASE_URL, 'terrain_bench')
    : undefined;
  const server = await TerrainProcess.start({ databaseUrl: database?.url });
  const token = await signIn(server.url, PROCESS_ADMIN.login, PROCESS_ADMIN.password);
  const pool = database ? new pg.Pool({ connectionString: database.url, max: 2 }) : undefined;
  const { dataDir } = server.options;

  const bench: BenchServer = {
    url: server.url,
    token,
    dataDir,
    database: database ? 'PostgreSQL' : 'PGlite',
    pid: server.pid,
    peakRssMb: () => server.peakRssMb(),
    rssMb: () => server.rssMb(),
    resetPeak: () => server.resetPeak(),
    async sql(text, values) {
      if (!pool) throw new Error('sql() needs PostgreSQL');
      return (await pool.query(text, values)).rows;
    },
    async direct(work) {
      if (database) {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        try {
          return await work({
            exec: async (statement) => void (await client.query(statement)),
            query: async (statement, values) => (await client.query(statement, values)).rows,
            copy: (target, data) => copyInto(client, `copy ${target} from stdin`, data),
          });
        } finally {
          await client.end();
        }
      }
      // PGlite is one process's database: the server is stopped while the same files are opened here.
      await server.stop();
      const pglite = await PGlite.create(path.join(dataDir, 'db'));
      try {
        return await work({
          exec: async (statement) => void (await pglite.exec(statement)),
          query: async (statement, values) => (await pglite.query<any>(statement, values)).rows,
          copy: async (target, data) =>
            void (await pglite.query(`copy ${target} from '/dev/blob'`, [], {
              blob: new Blob([new Uint8Array(data)]),
            })),
        });
      } finally {
        await pglite.close();
      }
    },
    async copyBaseline(columns, text) {
      return bench.direct((db) => copyBaselineIn(db, !!database, columns, text));
    },
    async stop() {
      await pool?.end();
      await server.stop();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return bench;
}

/** A JSON or text call to the API with the bench session. */
export async function call(
  server: BenchServer,
  method: string,
  apiPath: string,
  body?: FormData | object,
): Promise<{ status: number; body: any; text: string }> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${server.token}` } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await fetch(`${server.url}/api/v1${apiPath}`, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, text };
}

export function fileForm(fileName: string, content: string | Uint8Array, params?: object): FormData {
  const form = new FormData();
  if (params) form.append('params', JSON.stringify(params));
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), fileName);
  return form;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** COPY text format: backslash, tab, newline and carriage return escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** A text[] literal for COPY. */
export function copyArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
