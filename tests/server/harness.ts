import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type ServerConfig } from '../../server/config.ts';
import { migrateToLatest, openDatabase } from '../../server/db/database.ts';
import type { AnswerMismatch } from '../../server/http/answerCheck.ts';
import { createServer, type RunningServer, type ServerOptions } from '../../server/start.ts';
import { scratchDatabase } from '../scratchDatabase.ts';
import { testClock, type TestClock } from './testClock.ts';

/**
 * A real server over real HTTP on a free port, with its own data folder and its own database: a fresh embedded
 * PGlite, or — when DATABASE_URL is set — a fresh database created on that PostgreSQL server and dropped after.
 */
export interface TestServer {
  url: string;
  dataDir: string;
  /** The PostgreSQL database it uses (absent on PGlite): another instance can be started on it. */
  databaseUrl?: string;
  server: RunningServer;
  /** The server's clock: `advance` it to reach an expiry at once. */
  clock: TestClock;
  mails(): Promise<ReceivedMail[]>;
  /** The key of the newest mail sent to `to`. */
  lastKey(to: string): Promise<string>;
  close(): Promise<void>;
}

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  key?: string;
}

/**
 * An embedded database already created and migrated, made once per test process: a server started on a copy of it
 * opens an existing database (as after a restart) in a second instead of creating one in five (PGlite's initdb).
 * The first server of each process, the end-to-end and fault runs still create theirs from nothing.
 */
let embeddedTemplate: Promise<string> | undefined;

function migratedEmbeddedDatabase(): Promise<string> {
  embeddedTemplate ??= (async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'terrain-template-')), 'db');
    const database = await openDatabase({ pgliteDir: dir });
    await migrateToLatest(database.db);
    await database.close();
    return dir;
  })();
  return embeddedTemplate;
}

/**
 * `overrides.databaseUrl` starts the server on an existing database (another instance's `databaseUrl`): no
 * scratch database is created, and closing this server leaves the database to its owner.
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  env: NodeJS.ProcessEnv = {},
  options: Pick<ServerOptions, 'countRows' | 'logger' | 'freeSpace'> & {
    beforeListen?: (app: RunningServer['app']) => void;
    /**
     * false: answers are not checked against their schemas. The check costs what a production server does not pay
     * (seconds on an answer of megabytes), so a test measuring the request thread leaves it out.
     */
    checkAnswers?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'terrain-test-'));
  const scratch =
    process.env.DATABASE_URL && !overrides.databaseUrl
      ? await scratchDatabase(process.env.DATABASE_URL, 'terrain_test')
      : undefined;
  if (!process.env.DATABASE_URL && !overrides.databaseUrl)
    await cp(await migratedEmbeddedDatabase(), path.join(dataDir, 'db'), { recursive: true });
  const config: ServerConfig = {
    ...loadConfig({ ...env, DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-ui') }),
    databaseUrl: scratch?.url,
    host: '127.0.0.1',
    port: 0,
    ...overrides,
  };
  const { beforeListen, checkAnswers = true, ...serverOptions } = options;
  const clock = testClock();
  const answers = answerCheck();
  const server = await createServer(config, {
    log: process.env.TEST_SERVER_LOG ? (line) => console.error(line) : () => undefined,
    clock,
    ...(checkAnswers ? { onAnswerMismatch: answers.report } : {}),
    ...serverOptions,
  });
  beforeListen?.(server.app);
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const outbox = path.join(dataDir, 'outbox');

  async function mails(): Promise<ReceivedMail[]> {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    return Promise.all(files.map(async (file) => parseMail(await readFile(path.join(outbox, file), 'utf8'))));
  }

  return {
    url: address,
    dataDir,
    databaseUrl: config.databaseUrl,
    server,
    clock,
    mails,
    async lastKey(to) {
      const found = (await mails()).filter((m) => m.to.toLowerCase() === to.toLowerCase() && m.key);
      if (found.length === 0) throw new Error(`no key mailed to ${to}`);
      return found[found.length - 1].key!;
    },
    async close() {
      await server.close();
      await scratch?.drop();
      await rm(dataDir, { recursive: true, force: true });
      answers.verify();
    },
  };
}

/**
 * Stops a test server and starts the product again on the same data folder and database, as an operator
 * restarting it would. Close the restarted server first, then the original (which removes the data).
 */
export async function restartOnSameData(first: TestServer, overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const config: ServerConfig = { ...first.server.ctx.config, ...overrides };
  // The harness closes `first.server` again when `first` is closed: that second close must do nothing.
  const closeOnce = first.server.close.bind(first.server);
  let closing: Promise<void> | undefined;
  first.server.close = () => (closing ??= closeOnce());
  await first.server.close();

  const answers = answerCheck();
  const running = await createServer(config, {
    log: () => undefined,
    clock: first.clock,
    onAnswerMismatch: answers.report,
  });
  const url = await running.app.listen({ port: 0, host: '127.0.0.1' });
  const close = async () => {
    await running.close();
    answers.verify();
  };
  return {
    url,
    dataDir: config.dataDir,
    server: running,
    clock: first.clock,
    mails: first.mails,
    lastKey: first.lastKey,
    close,
  };
}

/**
 * Every JSON answer a test server gives is checked against its route's response schema (server/http/answerCheck.ts);
 * closing the server fails when one did not match, so that the contract cannot drift from what the services answer.
 */
function answerCheck() {
  const mismatches: AnswerMismatch[] = [];
  return {
    report: (mismatch: AnswerMismatch) => void mismatches.push(mismatch),
    verify() {
      if (mismatches.length === 0) return;
      const lines = [
        ...new Set(mismatches.map((m) => `${m.method} ${m.route} ${m.status}: ${m.path || '(answer)'} ${m.problem}`)),
      ];
      throw new Error(`answers that do not match their response schema:\n${lines.join('\n')}`);
    },
  };
}

/** Enough of RFC 5322 for our own plain-text mails: headers, then a body whose indented line is the key. */
export function parseMail(source: string): ReceivedMail {
  const [folded, ...rest] = source.split(/\r?\n\r?\n/);
  // Long headers are folded over several lines (RFC 5322 §2.2.3): a line starting with a space continues the last.
  const head = folded.replace(/\r?\n(?=[ \t])/g, '');
  const header = (name: string) => head.match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]?.trim() ?? '';
  const body = decodeBody(rest.join('\n\n'), header('Content-Transfer-Encoding'));
  const key = body.match(/^ {4}([A-Z2-9]{10})$/m)?.[1];
  return { to: header('To'), subject: decodeSubject(header('Subject')), text: body, key };
}

function decodeBody(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  return body;
}

function decodeSubject(subject: string): string {
  // Spaces between two encoded words are not part of the text (RFC 2047 §6.2).
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_n, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/**
 * A request that took its idempotency key on `instance` and was killed before answering: the key stays `running`,
 * its lease still a minute ahead, as a crash leaves it.
 */
export async function recordKeyLeftRunning(
  server: TestServer,
  key: { scope: string; key: string; path: string; instance: string },
): Promise<void> {
  await server.server.ctx.db
    .insertInto('idempotency_keys')
    .values({
      ...key,
      method: 'POST',
      fingerprint: null,
      status: 'running',
      locked_until: new Date(Date.now() + 60_000),
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
}

/** Where the change sent with `key` stands: 'running' while the server works on it, 'done' once its answer is kept. */
export async function idempotencyKeyStatus(server: TestServer, key: string): Promise<string | undefined> {
  const row = await server.server.ctx.db
    .selectFrom('idempotency_keys')
    .select('status')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.status;
}
