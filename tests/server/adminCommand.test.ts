import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { administers } from '../../server/services/applicationAccess.ts';
import { scratchDatabase } from '../scratchDatabase.ts';

/**
 * `npm run admin`, as an operator runs it, on a database of its own (embedded, or PostgreSQL when DATABASE_URL is
 * set): revoking a platform administrator takes away what the flag gave, the every-application pattern included,
 * whether the flag was given by the command or by the API.
 */
const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
let dataDir: string;
let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
  });
  return stdout;
}

async function account(login: string) {
  const database = await openDatabase({
    databaseUrl: scratch?.url,
    pgliteDir: path.join(dataDir, 'db'),
  });
  try {
    return await database.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirstOrThrow();
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'terrain-admin-command-'));
  if (process.env.DATABASE_URL) scratch = await scratchDatabase(process.env.DATABASE_URL, 'terrain_admin_command');
}, 60_000);
afterAll(async () => {
  await scratch?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('revokes a platform administrator whole: no flag, no every-application pattern, no application managed', async () => {
    expect(await admin('create', 'operator', 'operator@terrain.test', 'operator-password')).toContain('created');
    await admin('grant', 'operator');
    const granted = await account('operator');
    expect([granted.terrain_admin, granted.creator_patterns]).toEqual([true, ['.*']]);

    await admin('revoke', 'operator');
    const revoked = await account('operator');
    expect([revoked.terrain_admin, revoked.creator_patterns]).toEqual([false, []]);
    expect(administers(revoked, { name: 'any_application' }, [])).toBe(false);
  }, 120_000);
});
