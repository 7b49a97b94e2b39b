/**
 * A PostgreSQL cluster of our own, for the tests that restart PostgreSQL or fill its disk: created with initdb in a
 * temporary folder, listening on a free loopback port only, trust authentication (nobody else can reach it), and
 * removed at the end. Never the machine's shared cluster (port 5432): other people's tests use it.
 *
 * PostgreSQL refuses to run as root; as root the cluster runs as the `postgres` user through runuser.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './freePort.ts';

const run = promisify(execFile);
const SUPERUSER = 'terrain';

/** The bin folder of the newest PostgreSQL installed the Debian way, or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions[versions.length - 1], 'bin') : undefined;
}

/** Why an own cluster cannot be started here (no PostgreSQL binaries, or root without a postgres user), or undefined. */
export function ownClusterUnavailable(): string | undefined {
  if (!postgresBinaries()) return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin';
  if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return 'running as root without runuser';
  return undefined;
}

export interface OwnCluster {
  port: number;
  /** The folder holding the cluster (data, socket and log). */
  folder: string;
  /** A connection string to `database` as the cluster's superuser. */
  url(database?: string): string;
  /** The system user the server processes run as (owner of the files a tablespace needs). */
  owner: { uid: number; gid: number };
  /** `pg_ctl restart`: every connection is cut; `immediate` is a crash stop followed by recovery. */
  restart(mode?: 'fast' | 'immediate'): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  sql<T = Record<string, unknown>>(text: string, values?: unknown[], database?: string): Promise<T[]>;
  log(): Promise<string>;
  /** Stops the cluster and deletes its folder. */
  destroy(): Promise<void>;
}

async function postgresOwner(): Promise<{ uid: number; gid: number; asRoot: boolean }> {
  if (userInfo().uid !== 0) return { uid: userInfo().uid, gid: userInfo().gid, asRoot: false };
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()), asRoot: true };
}

export async function startOwnCluster(): Promise<OwnCluster> {
  const unavailable = ownClusterUnavailable();
  if (unavailable) throw new Error(`cannot start an own PostgreSQL cluster: ${unavailable}`);
  const bin = postgresBinaries()!;
  const owner = await postgresOwner();
  const folder = await mkdtemp(path.join(tmpdir(), 'terrain-pg-'));
  await chmod(folder, 0o755);
  await chown(folder, owner.uid, owner.gid);
  const data = path.join(folder, 'data');
  const logFile = path.join(folder, 'postgres.log');
  const port = await freePort();
  const asOwner = (command: string, args: string[]) =>
    owner.asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args])
      : run(path.join(bin, command), args);

  await asOwner('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${folder} -c fsync=off -c max_connections=100`;
  const pgCtl = (...args: string[]) => asOwner('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '60', ...args]);
  await pgCtl('-o', options, 'start');

  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  let running = true;
  const cluster: OwnCluster = {
    port,
    folder,
    owner,
    url,
    async restart(mode = 'fast') {
      await pgCtl('-m', mode, '-o', options, 'restart');
      running = true;
    },
    async stop(mode = 'fast') {
      await pgCtl('-m', mode, 'stop');
      running = false;
    },
    async start() {
      await pgCtl('-o', options, 'start');
      running = true;
    },
    async sql(text, values, database) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    async destroy() {
      if (running) await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      running = false;
      await rm(folder, { recursive: true, force: true });
    },
  };
  return cluster;
}
