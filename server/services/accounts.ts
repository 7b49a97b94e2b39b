import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { checkKey, checkPassword, validateRegistration, type FieldProblem } from '../../src/domain/accounts/rules.ts';
import type { ServerContext } from '../context.ts';
import type { KeyPurpose, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { AccountChange } from '../../src/contract/accounts.ts';
import { isOneMailAddress, mailAddressRule } from '../mail/address.ts';
import { keyMail, registrationNoticeMail, type KeyMailKind, type MailLanguage } from '../mail/templates.ts';
import { acceptCharter } from './charter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { enforceRateLimit, hitRateLimit } from './rateLimits.ts';
import {
  checkKeyAttempts,
  checkSignIn,
  clearKeyFailures,
  clearSignInFailures,
  recordKeyFailure,
  recordSignInFailure,
} from './signInThrottle.ts';
import { consumeKey, issueKey, revokeKeys } from './verificationKeys.ts';

/** Who asks, as far as account operations care. */
export interface Caller {
  language: MailLanguage;
  address: string;
  /** The signed-in user, when the request carries a session. */
  user?: UserRow;
  sessionId?: string;
}

const keyMailKind: Record<KeyPurpose, KeyMailKind> = { activation: 'activation', password: 'password', email: 'email' };

export async function findUserByLogin(ctx: ServerContext, login: string): Promise<UserRow | undefined> {
  return ctx.db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(login)`, '=', login.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findUserByIdOrLogin(ctx: ServerContext, idOrLogin: string): Promise<UserRow | undefined> {
  const byLogin = await findUserByLogin(ctx, idOrLogin);
  if (byLogin) return byLogin;
  // Only a well-formed UUID reaches the uuid column: anything else would make the database throw.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrLogin)) return undefined;
  return ctx.db.selectFrom('users').selectAll().where('id', '=', idOrLogin).executeTakeFirst();
}

/** The account an address belongs to (case ignored), other than `exceptUserId`'s. */
async function ownerOfEmail(ctx: ServerContext, email: string, exceptUserId?: string): Promise<UserRow | undefined> {
  let query = ctx.db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase());
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return query.executeTakeFirst();
}

async function mailKey(ctx: ServerContext, user: UserRow, purpose: KeyPurpose, to: string, caller: Caller) {
  // Key mails are an easy way to flood someone's inbox: at most a handful per account and window.
  const { windowSeconds, perLogin } = ctx.config.loginRateLimit;
  await enforceRateLimit(ctx.db, `keymail:${user.id}`, perLogin, windowSeconds);
  const key = await issueKey(
    ctx.db,
    user.id,
    purpose,
    to,
    new Date(ctx.clock.now().getTime() + ctx.config.keyValiditySeconds * 1000),
  );
  const message = keyMail(keyMailKind[purpose], caller.language, {
    login: user.login,
    key,
    minutes: Math.round(ctx.config.keyValiditySeconds / 60),
    url: ctx.config.publicUrl,
  });
  await ctx.mailer.send({ to, ...message, key });
}

/**
 * Spends a key or refuses it; a refused key sends a fresh one, as users expect after a typo or a delay. Wrong keys
 * are counted per account: at the last one allowed the live key dies, and no key is checked until the window ends.
 */
async function spendKey(
  ctx: ServerContext,
  user: UserRow,
  purpose: KeyPurpose,
  key: string,
  to: string,
  caller: Caller,
) {
  if (checkKey(key)) throw new Refusal('BAD_VALIDATION_KEY');
  const { windowSeconds } = ctx.config.loginRateLimit;
  await checkKeyAttempts(ctx.db, windowSeconds, user.id, purpose);
  const check = await consumeKey(ctx.db, user.id, purpose, key, ctx.clock.now());
  if (check.status === 'valid') {
    await clearKeyFailures(ctx.db, user.id, purpose);
    return check.targetEmail;
  }
  if (await recordKeyFailure(ctx.db, windowSeconds, user.id, purpose)) {
    await revokeKeys(ctx.db, user.id, purpose);
    throw new Refusal('BAD_VALIDATION_KEY');
  }
  await mailKey(ctx, user, purpose, to, caller);
  throw new Refusal(check.status === 'expired' ? 'EXPIRED_VALIDATION_KEY' : 'BAD_VALIDATION_KEY');
}

export async function register(
  ctx: ServerContext,
  input: { login: string; password: string; email: string },
  caller: Caller,
) {
  await enforceRateLimit(
    ctx.db,
    `register:${caller.address}`,
    ctx.config.loginRateLimit.perAddress,
    ctx.config.loginRateLimit.windowSeconds,
  );
  const problems: FieldProblem[] = validateRegistration(input);
  // The forms' simpler rule let the address through: the mail transport must read it as one address too.
  if (!problems.some((p) => p.field === 'email') && !isOneMailAddress(input.email.trim()))
    problems.push({ field: 'email', rule: 'invalidEmail' });
  if (problems.length > 0) throw new Refusal('INVALID_FIELDS', { fields: problems });
  const login = input.login.trim();
  const email = input.email.trim();
  // Logins are public (they name people in every list): a taken one is refused.
  if (await findUserByLogin(ctx, login)) throw new Refusal('EXISTING_LOGIN');
  const taken = await ownerOfEmail(ctx, email);
  if (taken) return registeredAgain(ctx, taken, caller);
  const passwordHash = await hashPassword(input.password);
  const user = await ctx.db
    .insertInto('users')
    .values({ id: randomUUID(), login, email, password_hash: passwordHash, state: 'idle' })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(async (error: unknown) => {
      if (String((error as { code?: string }).code) !== '23505') throw error;
      // Two registrations racing for one login or address: the unique index decided, and says which.
      if (await findUserByLogin(ctx, login)) throw new Refusal('EXISTING_LOGIN');
      const owner = await ownerOfEmail(ctx, email);
      if (owner) return registeredAgain(ctx, owner, caller);
      throw error;
    });
  await mailKey(ctx, user, 'activation', user.email, caller);
  return { id: user.id };
}

/**
 * A registration with an address an account has: refused (422 EXISTING_EMAIL), and the address's owner told by
 * mail, a few times per window at most, counted apart from their key mails so that these notices never hold a key
 * back. Answering as for a new account hid nothing: signing in with the login sent, or registering it again, told
 * the two apart (see docs/decisions.md, "Accounts and roles").
 */
async function registeredAgain(ctx: ServerContext, owner: UserRow, caller: Caller): Promise<never> {
  const { windowSeconds, perLogin } = ctx.config.loginRateLimit;
  const hit = await hitRateLimit(ctx.db, `registration-notice:${owner.id}`, perLogin, windowSeconds);
  if (hit.allowed)
    await ctx.mailer.send({
      to: owner.email,
      ...registrationNoticeMail(caller.language, { login: owner.login, url: ctx.config.publicUrl }),
    });
  throw new Refusal('EXISTING_EMAIL');
}

export async function signIn(ctx: ServerContext, input: { login: string; password: string }, caller: Caller) {
  const limits = ctx.config.loginRateLimit;
  const login = input.login.trim().toLowerCase();
  await checkSignIn(ctx.db, limits, login, caller.address);

  const user = login === '' ? undefined : await findUserByLogin(ctx, login);
  if (!(await verifyPassword(user?.password_hash, input.password)) || !user) {
    await recordSignInFailure(ctx.db, limits, login, caller.address);
    throw new Refusal('BAD_LOGIN_PASSWORD');
  }
  await clearSignInFailures(ctx.db, login, caller.address);
  if (user.state === 'closed') throw new Refusal('CLOSED_ACCOUNT');
  if (user.state !== 'active') {
    await mailKey(ctx, user, 'activation', user.email, caller);
    throw new Refusal(user.state === 'pending' ? 'PENDING_ACCOUNT' : 'INACTIVE_ACCOUNT');
  }
  return user;
}

const present = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * Applies the change the body describes and answers the account changed, or undefined when the change only mailed
 * a connection key (lost password, step 1): whoever asks then proved nothing yet, and learns nothing of the account.
 */
export async function changeAccount(
  ctx: ServerContext,
  change: AccountChange,
  caller: Caller,
): Promise<UserRow | undefined> {
  const { login, password, email, newPassword, newPasswordConfirm, verificationKey } = change;
  if (!present(login)) throw new Refusal('BAD_LOGIN_OR_EMAIL_PASSWORD');
  // A signed-in user changes only their own account, whatever the body names; told the same whether the login
  // named exists or not, so that the refusal tells nothing of other accounts.
  if (caller.user && caller.user.login.toLowerCase() !== login.trim().toLowerCase())
    throw new Refusal('BAD_LOGIN_FOR_ACTION');
  const user = await findUserByLogin(ctx, login);
  // The state of an account is told only to whoever proved its password or its address.
  const refuseClosed = (proven: UserRow) => {
    if (proven.state === 'closed') throw new Refusal('CLOSED_ACCOUNT');
  };

  if (present(password)) {
    // A password proven here is a sign-in: the same throttle counts the guesses, whichever door they come through.
    const limits = ctx.config.loginRateLimit;
    const throttled = login.trim().toLowerCase();
    await checkSignIn(ctx.db, limits, throttled, caller.address);
    if (!(await verifyPassword(user?.password_hash, password)) || !user) {
      await recordSignInFailure(ctx.db, limits, throttled, caller.address);
      throw new Refusal('BAD_CURRENT_PASSWORD');
    }
    await clearSignInFailures(ctx.db, throttled, caller.address);
    refuseClosed(user);
    if (present(verificationKey)) {
      if (user.state !== 'active') return activate(ctx, user, verificationKey, caller);
      if (user.pending_email) return confirmEmailChange(ctx, user, verificationKey, caller);
      throw new Refusal('NO_PENDING_EMAIL_CHANGE');
    }
    if (newPassword !== undefined || newPasswordConfirm !== undefined) {
      return changePassword(ctx, user, newPassword ?? '', newPasswordConfirm ?? '', caller);
    }
    if (present(email)) return startEmailChange(ctx, user, email, caller);
    throw new Refusal('BAD_LOGIN_OR_EMAIL_PASSWORD');
  }

  if (present(email)) {
    if (!user || user.email.toLowerCase() !== email.trim().toLowerCase()) throw new Refusal('INVALID_ACCOUNT');
    refuseClosed(user);
    if (present(change.charte)) {
      // Login and e-mail are no secret: only the account's own session may accept a charter in its name.
      if (!caller.user) throw new Refusal('NOT_AUTHENTICATED');
      return acceptCharter(ctx, user, change.charte, change.charterUploadedAt);
    }
    if (present(verificationKey))
      return resetPassword(ctx, user, verificationKey, newPassword ?? '', newPasswordConfirm ?? '', caller);
    await mailKey(ctx, user, 'password', user.email, caller);
    return undefined;
  }
  throw new Refusal('BAD_LOGIN_OR_EMAIL_PASSWORD');
}

async function updateUser(
  ctx: ServerContext,
  userId: string,
  values: Partial<Pick<UserRow, 'state' | 'email' | 'pending_email' | 'password_hash'>>,
) {
  return ctx.db
    .updateTable('users')
    .set({ ...values, update_date: new Date() })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function activate(ctx: ServerContext, user: UserRow, key: string, caller: Caller) {
  await spendKey(ctx, user, 'activation', key, user.email, caller);
  return updateUser(ctx, user.id, { state: 'active' });
}

function checkNewPasswords(password: string, confirmation: string) {
  if (password === '' || password !== confirmation) throw new Refusal('BAD_PASSWORDS');
  const rule = checkPassword(password);
  if (rule) throw new Refusal('INVALID_FIELDS', { fields: [{ field: 'newPassword', rule }] });
}

async function changePassword(
  ctx: ServerContext,
  user: UserRow,
  password: string,
  confirmation: string,
  caller: Caller,
) {
  checkNewPasswords(password, confirmation);
  const updated = await updateUser(ctx, user.id, { password_hash: await hashPassword(password) });
  // A new password signs out every other device: whoever knew the old one is no longer in.
  await ctx.db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', user.id)
    .where('revoked_at', 'is', null)
    .$if(caller.sessionId !== undefined, (q) => q.where('id', '!=', caller.sessionId!))
    .execute();
  return updated;
}

async function startEmailChange(ctx: ServerContext, user: UserRow, email: string, caller: Caller) {
  const target = email.trim();
  const rule = mailAddressRule(target);
  if (rule) throw new Refusal('INVALID_FIELDS', { fields: [{ field: 'email', rule }] });
  if (target.toLowerCase() === user.email.toLowerCase()) throw new Refusal('EMAIL_UNCHANGED');
  // Whether an address is taken is told here too: as often as registering from one address may tell it.
  const { windowSeconds, perAddress } = ctx.config.loginRateLimit;
  await enforceRateLimit(ctx.db, `addresschange:${user.id}`, perAddress, windowSeconds);
  if (await ownerOfEmail(ctx, target, user.id)) throw new Refusal('EXISTING_EMAIL');
  const updated = await updateUser(ctx, user.id, { pending_email: target });
  await mailKey(ctx, updated, 'email', target, caller);
  return updated;
}

async function confirmEmailChange(ctx: ServerContext, user: UserRow, key: string, caller: Caller) {
  const target = await spendKey(ctx, user, 'email', key, user.pending_email!, caller);
  if (await ownerOfEmail(ctx, target, user.id)) throw new Refusal('EXISTING_EMAIL');
  return updateUser(ctx, user.id, { email: target, pending_email: null });
}

async function resetPassword(
  ctx: ServerContext,
  user: UserRow,
  key: string,
  password: string,
  confirmation: string,
  caller: Caller,
) {
  checkNewPasswords(password, confirmation);
  await spendKey(ctx, user, 'password', key, user.email, caller);
  // The key came through the account's mailbox, which proves the address as well as an activation key does.
  const updated = await updateUser(ctx, user.id, { password_hash: await hashPassword(password), state: 'active' });
  await ctx.db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', user.id)
    .where('revoked_at', 'is', null)
    .execute();
  return updated;
}
