import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { ServerContext } from '../context.ts';
import { hashPassword } from './passwords.ts';

export interface AdminBootstrap {
  login: string;
  /** Present only when the password was generated now: it is shown once. */
  generatedPassword?: string;
  credentialsFile?: string;
}

/**
 * The platform administrator exists from the first start. With TERRAIN_ADMIN_* set, that account is created (or
 * its flag restored); otherwise an `admin` account gets a generated password, printed once and kept in a file
 * only the owner can read.
 */
export async function ensurePlatformAdmin(ctx: ServerContext): Promise<AdminBootstrap | undefined> {
  const { login, password, email } = ctx.config.admin;
  if (login) {
    const existing = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where(sql`lower(login)`, '=', login.toLowerCase())
      .executeTakeFirst();
    if (existing) {
      if (!existing.terrain_admin)
        await ctx.db.updateTable('users').set({ terrain_admin: true }).where('id', '=', existing.id).execute();
      return undefined;
    }
    const generated = password ? undefined : randomBytes(12).toString('base64url');
    if (!(await createAdmin(ctx, login, email ?? `${login}@terrain.local`, password ?? generated!))) return undefined;
    return generated ? await writeCredentials(ctx, login, generated) : { login };
  }
  const anyAdmin = await ctx.db.selectFrom('users').select('id').where('terrain_admin', '=', true).executeTakeFirst();
  if (anyAdmin) return undefined;
  const generated = randomBytes(12).toString('base64url');
  if (!(await createAdmin(ctx, 'admin', email ?? 'admin@terrain.local', generated))) return undefined;
  return writeCredentials(ctx, 'admin', generated);
}

/**
 * Answers whether this call created the account. Two instances starting together on one database both try: only
 * the one whose row went in may show or keep its generated password (the other's would not sign in).
 */
async function createAdmin(ctx: ServerContext, login: string, email: string, password: string): Promise<boolean> {
  const created = await ctx.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      login,
      email,
      password_hash: await hashPassword(password),
      state: 'active',
      terrain_admin: true,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return created !== undefined;
}

async function writeCredentials(ctx: ServerContext, login: string, password: string): Promise<AdminBootstrap> {
  await mkdir(ctx.config.dataDir, { recursive: true });
  const file = path.join(ctx.config.dataDir, 'admin-credentials.txt');
  await writeFile(file, `login: ${login}\npassword: ${password}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { login, generatedPassword: password, credentialsFile: file };
}
