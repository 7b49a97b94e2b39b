/**
 * A Terrain server in its own Node process (`server/main.ts`, as operators run it), for the tests that kill it,
 * start it again on the same data, or load it: its memory is its own (read from /proc) and the clients do not
 * share its event loop. The database is an embedded PGlite in the data folder, or the PostgreSQL database given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './freePort.ts';
import { serverNodeArgs } from '../../scripts/serverNode.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

export const PROCESS_ADMIN = { login: 'operator', password: 'operator-password-1', email: 'operator@terrain.test' };

export interface TerrainProcessOptions {
  /** Kept between restarts: the embedded database, the mail outbox. A new temporary folder when absent. */
  dataDir?: string;
  databaseUrl?: string;
  port?: number;
  /** More environment (rate limits, faults). */
  env?: Record<string, string>;
}

export class TerrainProcess {
  private output = '';
  /** Set once a stop or a kill was asked for: the exit that follows is expected. */
  private stopping = false;
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly options: Required<Pick<TerrainProcessOptions, 'dataDir' | 'port'>> & TerrainProcessOptions,
  ) {
    // TERRAIN_PROCESS_LOG=1 shows what the server writes.
    const keep = (chunk: Buffer) => {
      this.output += String(chunk);
      if (process.env.TERRAIN_PROCESS_LOG) process.stderr.write(chunk);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    // A server dying by itself says so at once (its last words), not only through the requests that then fail.
    child.once('exit', (code, signal) => {
      if (!this.stopping)
        process.stderr.write(
          `Terrain process ${child.pid} exited by itself (code ${code}, signal ${signal}): ${this.output.slice(-2000)}\n`,
        );
    });
  }

  static async start(options: TerrainProcessOptions = {}): Promise<TerrainProcess> {
    const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'terrain-process-')));
    const port = options.port ?? (await freePort());
    // TERRAIN_PROCESS_NODE_ARGS adds Node flags to the server alone (`--cpu-prof`, which NODE_OPTIONS refuses); given
    // after the server's own V8 flags, it may also change them for a measurement.
    const nodeArgs = process.env.TERRAIN_PROCESS_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const child = spawn(process.execPath, serverNodeArgs(nodeArgs), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl ?? '',
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, 'no-ui'),
        PORT: String(port),
        HOST: '127.0.0.1',
        TERRAIN_ADMIN_LOGIN: PROCESS_ADMIN.login,
        TERRAIN_ADMIN_PASSWORD: PROCESS_ADMIN.password,
        TERRAIN_ADMIN_EMAIL: PROCESS_ADMIN.email,
        LOGIN_RATE_LIMIT_PER_LOGIN: '100000',
        LOGIN_RATE_LIMIT_PER_ADDRESS: '100000',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new TerrainProcess(child, `http://127.0.0.1:${port}`, { ...options, dataDir, port });
    const started = Date.now();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`Terrain exited at start: ${server.output}`);
      if (server.output.includes('Terrain is running')) return server;
      if (Date.now() - started > 120_000) {
        server.stopping = true;
        child.kill('SIGKILL');
        throw new Error(`Terrain did not start: ${server.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the process wrote so far. */
  get log(): string {
    return this.output;
  }

  /** Sends the signal and waits for the process to be gone (SIGKILL: no clean-up of any kind). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.alive) return;
    this.stopping = true;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill(signal);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (this.alive) {
      this.child.kill('SIGKILL');
      await exited;
    }
  }

  /** A clean stop (SIGTERM), as an operator's restart does. */
  stop(): Promise<void> {
    return this.kill('SIGTERM');
  }

  /** A new process on the same data, database and port. */
  restart(): Promise<TerrainProcess> {
    return TerrainProcess.start(this.options);
  }

  private async status(field: string): Promise<number> {
    const text = await readFile(`/proc/${this.pid}/status`, 'utf8');
    return Number(text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) / 1024;
  }

  /** Resident memory now, in MB. */
  rssMb(): Promise<number> {
    return this.status('VmRSS');
  }

  /** Highest resident memory since the process started or since `resetPeak`, in MB (VmHWM). */
  peakRssMb(): Promise<number> {
    return this.status('VmHWM');
  }

  /** Starts a new peak measurement (Linux `clear_refs` 5); false when the kernel refuses. */
  async resetPeak(): Promise<boolean> {
    try {
      await writeFile(`/proc/${this.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }
}

/** Signs in over HTTP and answers the bearer token of the new session. */
export async function signIn(url: string, login: string, password: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password }).toString(),
  });
  const token = answer.headers.get('authorization')?.replace(/^Bearer /, '');
  if (answer.status !== 200 || !token)
    throw new Error(`sign-in of ${login} answered ${answer.status}: ${await answer.text()}`);
  return token;
}
