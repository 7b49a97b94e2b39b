/**
 * A Terrain server in its own Node process for the ingest and deposit benchmarks, so that its memory is its own
 * (peak RSS read from /proc) and the client generating and sending files does not share its event loop. It runs
 * on a scratch database of the PostgreSQL in DATABASE_URL when set, otherwise on an embedded PGlite in a
 * temporary folder. A plain COPY into an equivalent table of the same database gives the reference time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { login: 'bench', password: 'bench-password-1', email: 'bench@terrain.test' };

export type DatabaseKind = 'PostgreSQL' | 'PGlite';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The columns, foreign keys and indexes of `data_rows` (migrations 0004 and 0005), for the COPY baseline. */
export const BASELINE_TABLE = `
  create table copy_baseline (
    id uuid primary key,
    application_id uuid not null references applications(id) on delete cascade,
    data_name text not null,
    natural_key text not null,
    hierarchical_key text not null,
    values jsonb not null,
    refs text[] not null default '{}',
    line_number integer,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    file_id uuid references deposit_files(id) on delete cascade,
    period_start timestamp,
    period_end timestamp
  );
  create unique index copy_baseline_natural_key on copy_baseline (application_id, data_name, natural_key) where file_id is null;
  create index copy_baseline_versioned_key on copy_baseline (application_id, data_name, natural_key) where file_id is not null;
  create index copy_baseline_hierarchical_key on copy_baseline (application_id, data_name, hierarchical_key text_pattern_ops);
  create index copy_baseline_refs on copy_baseline using gin (refs);
  create index copy_baseline_file on copy_baseline (file_id) where file_id is not null;
  create index copy_baseline_period on copy_baseline (application_id, data_name, period_start);
`;

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
   * Runs a COPY of `text` (COPY text format) into a fresh equivalent table, in one transaction; answers the time in
   * ms. The rows' application_id must name a stored application (the table has data_rows' foreign keys).
   */
  copyBaseline(columns: string, text: string): Promise<number>;
  /** Sends SQL to the server's database (PostgreSQL only; PGlite is held by the server process). */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

async function statusOf(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return kb / 1024;
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
    const query = client.query(new CopyIn(statement, data) as unknown as pg.QueryConfig) as unknown as NodeJS.EventEmitter;
    query.once('end', () => resolve());
    query.once('error', reject);
  });
}

export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'terrain-bench-'));
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => undefined as void;
  if (adminUrl) {
    const name = `terrain_bench_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  }
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-ui'),
      PORT: String(port),
      HOST: '127.0.0.1',
      TERRAIN_ADMIN_LOGIN: ADMIN.login,
      TERRAIN_ADMIN_PASSWORD: ADMIN.password,
      TERRAIN_ADMIN_EMAIL: ADMIN.email,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopped = false;
  const listen = (chunk: Buffer) => {
    output += String(chunk);
    // BENCH_SERVER_LOG=1 shows what the server writes.
    if (process.env.BENCH_SERVER_LOG) process.stderr.write(chunk);
  };
  child.stdout!.on('data', listen);
  child.stderr!.on('data', listen);
  child.once('exit', (code, signal) => {
    // A stop ends it by SIGTERM (or a clean exit); anything else is the server dying by itself.
    if (!stopped || (signal !== 'SIGTERM' && signal !== 'SIGKILL' && code !== 0)) process.stderr.write(`bench server exited by itself (code ${code}, signal ${signal}): ${output.slice(-2000)}\n`);
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bench server exited: ${output}`);
    if (output.includes('Terrain is running')) break;
    if (Date.now() - started > 120_000) throw new Error(`bench server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const login = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: ADMIN.login, password: ADMIN.password }).toString(),
  });
  const token = login.headers.get('authorization')?.replace(/^Bearer /, '');
  if (login.status !== 200 || !token) throw new Error(`bench sign-in answered ${login.status}`);

  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 2 }) : undefined;
  const pid = child.pid!;

  async function stopServer() {
    if (stopped) return;
    stopped = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }

  return {
    url,
    token,
    dataDir,
    database: databaseUrl ? 'PostgreSQL' : 'PGlite',
    pid,
    peakRssMb: () => statusOf(pid, 'VmHWM'),
    rssMb: () => statusOf(pid, 'VmRSS'),
    async resetPeak() {
      try {
        await writeFile(`/proc/${pid}/clear_refs`, '5');
        return true;
      } catch {
        return false;
      }
    },
    async sql(text, values) {
      if (!pool) throw new Error('sql() needs PostgreSQL');
      return (await pool.query(text, values)).rows;
    },
    async copyBaseline(columns, text) {
      const data = Buffer.from(text, 'utf8');
      if (pool) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          await client.query('drop table if exists copy_baseline');
          await client.query(BASELINE_TABLE);
          const start = performance.now();
          await client.query('begin');
          await copyInto(client, `copy copy_baseline (${columns}) from stdin`, data);
          await client.query('commit');
          const elapsed = performance.now() - start;
          await client.query('drop table copy_baseline');
          return elapsed;
        } finally {
          await client.end();
        }
      }
      // PGlite is one process's database: the server is paused while the same files are opened here.
      await stopServer();
      const pglite = await PGlite.create(path.join(dataDir, 'db'));
      try {
        await pglite.exec('drop table if exists copy_baseline');
        await pglite.exec(BASELINE_TABLE);
        const start = performance.now();
        await pglite.query(`copy copy_baseline (${columns}) from '/dev/blob'`, [], { blob: new Blob([data]) });
        const elapsed = performance.now() - start;
        await pglite.exec('drop table copy_baseline');
        return elapsed;
      } finally {
        await pglite.close();
      }
    },
    async stop() {
      await pool?.end();
      await stopServer();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON or text call to the API with the bench session. */
export async function call(server: BenchServer, method: string, apiPath: string, body?: FormData | object): Promise<{ status: number; body: any; text: string }> {
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
