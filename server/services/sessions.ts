import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../context.ts';
import type { Schema, UserRow } from '../db/schema.ts';

/**
 * Sessions are rows in the database named by a random id; the token handed to the browser is that id signed
 * with the instance-shared secret. Any instance can check a token, and logging out revokes it everywhere.
 */
export interface SessionKeeper {
  create(userId: string): Promise<string>;
  /** The session's user when the token is genuine, unexpired and not revoked; slides the expiry forward. */
  resolve(token: string): Promise<{ sessionId: string; user: UserRow } | undefined>;
  revoke(token: string): Promise<void>;
  revokeAllOf(userId: string, except?: string): Promise<void>;
}

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

export function createSessionKeeper(
  db: Kysely<Schema>,
  secret: string,
  idleSeconds: number,
  clock: Clock,
): SessionKeeper {
  const sign = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  const idOf = (token: string): string | undefined => {
    const [id, signature, extra] = token.split('.');
    if (!id || !signature || extra !== undefined) return undefined;
    const expected = Buffer.from(sign(id));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  };
  const expiry = () => new Date(clock.now().getTime() + idleSeconds * 1000);
  // Extending the expiry at most every few seconds keeps a burst of requests from writing the row each time.
  const refreshAfterMs = Math.min(30, idleSeconds / 4) * 1000;

  return {
    async create(userId) {
      const id = randomBytes(24).toString('base64url');
      await db.insertInto('sessions').values({ id, user_id: userId, expires_at: expiry() }).execute();
      return `${id}.${sign(id)}`;
    },
    async resolve(token) {
      const id = idOf(token);
      if (!id) return undefined;
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select(['sessions.expires_at as session_expires_at'])
        .where('sessions.id', '=', id)
        .where('sessions.revoked_at', 'is', null)
        // The instance's clock, which wrote the expiry, rather than the database's.
        .where('sessions.expires_at', '>', clock.now())
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_expires_at, ...user } = row;
      if (session_expires_at.getTime() - clock.now().getTime() < idleSeconds * 1000 - refreshAfterMs) {
        // Sliding the expiry is a convenience, never a condition of the request: when the row cannot be written
        // (a full disk), the session still holds until its current expiry and the next request slides it.
        await db
          .updateTable('sessions')
          .set({ expires_at: expiry() })
          .where('id', '=', id)
          .execute()
          .catch(() => undefined);
      }
      return { sessionId: id, user };
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
  };
}
