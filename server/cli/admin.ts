/**
 * `npm run admin -- <command>`: manage platform administrators and accounts from the command line, on the
 * database the server uses (DATA_DIR or DATABASE_URL). Run it while the server is stopped when the embedded
 * database is used (one process at a time may open it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { PASSWORD_MIN_LENGTH, checkLogin, checkPassword } from '../../src/domain/accounts/rules.ts';
import { platformAdminPatterns } from '../../src/domain/applications/applicationName.ts';
import { mailAddressRule } from '../mail/address.ts';
import { hashPassword } from '../services/passwords.ts';

const usage = `Usage: npm run admin -- <command>
  list                              the accounts, platform administrators first
  create <login> <email> [password] a new active platform administrator (password generated when omitted)
  grant <login>                     make an account platform administrator
  revoke <login>                    remove the platform administrator flag and its every-application pattern
  reset-password <login>            set a new generated password, printed once
  activate <login> | close <login>  open or close an account`;

const [command, ...args] = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
const { db } = database;

function fail(message: string): never {
  console.error(message);
  process.exitCode = 1;
  throw new Error(message);
}

async function userOf(login: string | undefined) {
  if (!login) fail(usage);
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(login)`, '=', login.toLowerCase())
    .executeTakeFirst();
  return user ?? fail(`no account with login "${login}"`);
}

const generated = () => randomBytes(12).toString('base64url');

try {
  await migrateToLatest(db);
  switch (command) {
    case 'list': {
      const users = await db
        .selectFrom('users')
        .select(['login', 'email', 'state', 'terrain_admin'])
        .orderBy('terrain_admin', 'desc')
        .orderBy('login')
        .execute();
      for (const u of users)
        console.log(`${u.terrain_admin ? 'admin ' : '      '} ${u.login.padEnd(24)} ${u.state.padEnd(7)} ${u.email}`);
      break;
    }
    case 'create': {
      const [login, email, given] = args;
      if (!login || !email) fail(usage);
      if (checkLogin(login) || mailAddressRule(email))
        fail('the login needs 4 characters or more without spaces, and the e-mail must be valid');
      if (given !== undefined && checkPassword(given))
        fail(`the password needs ${PASSWORD_MIN_LENGTH} characters or more`);
      const password = given ?? generated();
      await db
        .insertInto('users')
        .values({
          id: randomUUID(),
          login,
          email,
          password_hash: await hashPassword(password),
          state: 'active',
          terrain_admin: true,
        })
        .execute();
      console.log(`platform administrator "${login}" created${given ? '' : ` with password ${password}`}`);
      break;
    }
    case 'grant':
    case 'revoke': {
      const user = await userOf(args[0]);
      const grant = command === 'grant';
      await db
        .updateTable('users')
        .set({
          terrain_admin: grant,
          creator_patterns: JSON.stringify(platformAdminPatterns(user.creator_patterns, grant)),
          update_date: new Date(),
        })
        .where('id', '=', user.id)
        .execute();
      console.log(`"${user.login}" is ${command === 'grant' ? 'now' : 'no longer'} platform administrator`);
      break;
    }
    case 'reset-password': {
      const user = await userOf(args[0]);
      const password = generated();
      await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password), update_date: new Date() })
        .where('id', '=', user.id)
        .execute();
      await db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      console.log(`new password for "${user.login}": ${password}`);
      break;
    }
    case 'activate':
    case 'close': {
      const user = await userOf(args[0]);
      await db
        .updateTable('users')
        .set({ state: command === 'activate' ? 'active' : 'closed', update_date: new Date() })
        .where('id', '=', user.id)
        .execute();
      console.log(`"${user.login}" is ${command === 'activate' ? 'active' : 'closed'}`);
      break;
    }
    default:
      console.log(usage);
      if (command) process.exitCode = 1;
  }
} catch (error) {
  if (!process.exitCode) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
