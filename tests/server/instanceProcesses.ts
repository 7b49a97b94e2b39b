import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { freePort } from '../processes/freePort.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseMail, type ReceivedMail } from './harness.ts';
import { serverNodeArgs } from '../../scripts/serverNode.mjs';

/**
 * Server instances as operators run them: each a separate `node server/main.ts` process with its own port and
 * data folder, sharing nothing but the PostgreSQL database they are given. Nothing can pass between them through
 * memory, so whatever works across them works through the database.
 */
export interface InstanceProcess {
  url: string;
  port: number;
  dataDir: string;
  /** What the process printed so far (stdout and stderr). */
  output(): string;
  /** Mails this instance wrote to its outbox folder. */
  mails(): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Starts one instance on `databaseUrl`; `env` adds or overrides settings (rate limits, admin, static folder). */
export async function startInstanceProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<InstanceProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'terrain-instance-'));
  const child = spawn(process.execPath, serverNodeArgs(), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-ui'),
      DATABASE_URL: databaseUrl,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`instance on port ${port} did not start within 60 s:\n${output}`)),
      60_000,
    );
    const check = () => {
      if (output.includes('Terrain is running')) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        child.off('exit', early);
        resolve();
      }
    };
    const early = () => {
      clearTimeout(timer);
      reject(new Error(`instance on port ${port} exited at start (${child.exitCode ?? child.signalCode}):\n${output}`));
    };
    child.stdout!.on('data', check);
    child.once('exit', early);
  });

  const outbox = path.join(dataDir, 'outbox');
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    output: () => output,
    async mails() {
      const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
      return Promise.all(files.map(async (file) => parseMail(await readFile(path.join(outbox, file), 'utf8'))));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGTERM lets the instance close its pool and job runner; a stuck one is killed after 10 s.
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited(child);
        clearTimeout(killer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
