import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../context.ts';
import type { Schema, UserRow } from '../db/schema.ts';

/**
 * Sessions are rows in the database named by a random id; the token handed to the browser is that id signed
 * with the instance-shared secret. Any instance can check a token, and logging out revokes it everywhere.
 */
export interface SessionKeeper {
  /** A new session: `lasting` keeps the device signed in over the lasting lifetime; `device` names it. */
  create(
    userId: string,
    options?: { lasting?: boolean; device?: string },
  ): Promise<{ token: string; lifetimeSeconds: number }>;
  /** The session's user when the token is genuine, unexpired and not revoked; slides the expiry forward. */
  resolve(token: string): Promise<{ sessionId: string; user: UserRow; lifetimeSeconds: number } | undefined>;
  revoke(token: string): Promise<void>;
  revokeAllOf(userId: string, except?: string): Promise<void>;
  /** The devices the user is kept signed in on (lasting sessions still valid). */
  devicesOf(userId: string, currentSessionId?: string): Promise<KeptDevice[]>;
  /** Ends the lasting session `deviceId` names; false when the user has none by that id. */
  revokeDevice(userId: string, deviceId: string): Promise<boolean>;
}

/** A device kept signed in, as its owner sees it: never the session id, which with the secret is the token. */
export interface KeptDevice {
  id: string;
  device: string | null;
  createdAt: Date;
  expiresAt: Date;
  current: boolean;
}

/** The public name of a session: a digest, so that listing devices reveals nothing that signs a token. */
const deviceIdOf = (sessionId: string) => createHash('sha256').update(sessionId).digest('base64url').slice(0, 22);

export async function loadSessionSecret(db: Kysely<Schema>, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('settings')
    .values({ key: 'session_secret', value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', 'session_secret')
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * Devices a person stays signed in on at once. Signing in on one more ends the one signed in on longest ago: a
 * forgotten loan tablet does not stay signed in for ever, and the list on the profile stays short enough to read.
 */
export const MAX_KEPT_DEVICES = 20;

export function createSessionKeeper(
  db: Kysely<Schema>,
  secret: string,
  lifetimes: { idleSeconds: number; lastingSeconds: number },
  clock: Clock,
): SessionKeeper {
  const lifetimeOf = (lasting: boolean) => (lasting ? lifetimes.lastingSeconds : lifetimes.idleSeconds);
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  const idOf = (token: string): string | undefined => {
    const [id, signature, extra] = token.split('.');
    if (!id || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(sign(id));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  };
  const expiry = (lifetimeSeconds: number) => new Date(clock.now().getTime() + lifetimeSeconds * 1000);
  // Extending the expiry at most every few seconds keeps a burst of requests from writing the row each time.
  const refreshAfterMs = (lifetimeSeconds: number) => Math.min(30, lifetimeSeconds / 4) * 1000;
  const valid = () =>
    db
      .selectFrom('sessions')
      .where('sessions.revoked_at', 'is', null)
      // The instance's clock, which wrote the expiry, rather than the database's.
      .where('sessions.expires_at', '>', clock.now());

  return {
    async create(userId, { lasting = false, device } = {}) {
      const id = randomBytes(24).toString('base64url');
      const lifetimeSeconds = lifetimeOf(lasting);
      await db
        .insertInto('sessions')
        .values({ id, user_id: userId, expires_at: expiry(lifetimeSeconds), lasting, device: device ?? null })
        .execute();
      if (lasting) {
        const beyond = await valid()
          .select('id')
          .where('user_id', '=', userId)
          .where('lasting', '=', true)
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .offset(MAX_KEPT_DEVICES)
          .limit(1_000)
          .execute();
        if (beyond.length > 0)
          await db
            .updateTable('sessions')
            .set({ revoked_at: new Date() })
            .where(
              'id',
              'in',
              beyond.map((row) => row.id),
            )
            .execute();
      }
      return { token: `${id}.${sign(id)}`, lifetimeSeconds };
    },
    async resolve(token) {
      const id = idOf(token);
      if (!id) return undefined;
      const row = await valid()
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select(['sessions.expires_at as session_expires_at', 'sessions.lasting as session_lasting'])
        .where('sessions.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_expires_at, session_lasting, ...user } = row;
      const lifetimeSeconds = lifetimeOf(session_lasting);
      const left = session_expires_at.getTime() - clock.now().getTime();
      if (left < lifetimeSeconds * 1000 - refreshAfterMs(lifetimeSeconds)) {
        // Sliding the expiry is a convenience, never a condition of the request: when the row cannot be written
        // (a full disk), the session still holds until its current expiry and the next request slides it.
        await db
          .updateTable('sessions')
          .set({ expires_at: expiry(lifetimeSeconds) })
          .where('id', '=', id)
          .execute()
          .catch(() => undefined);
      }
      return { sessionId: id, user, lifetimeSeconds };
    },
    async revoke(token) {
      const id = idOf(token);
      if (id) await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', id).execute();
    },
    async revokeAllOf(userId, except) {
      let query = db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (except) query = query.where('id', '!=', except);
      await query.execute();
    },
    async devicesOf(userId, currentSessionId) {
      const rows = await valid()
        .select(['id', 'device', 'created_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('lasting', '=', true)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((row) => ({
        id: deviceIdOf(row.id),
        device: row.device,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        current: row.id === currentSessionId,
      }));
    },
    async revokeDevice(userId, deviceId) {
      const ids = await valid().select('id').where('user_id', '=', userId).where('lasting', '=', true).execute();
      const session = ids.find((row) => deviceIdOf(row.id) === deviceId);
      if (!session) return false;
      await db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', session.id).execute();
      return true;
    },
  };
}
