import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateVerificationKey, normalizeVerificationKey } from '../../src/domain/accounts/verificationKey.ts';
import type { KeyPurpose, Schema } from '../db/schema.ts';

const digest = (key: string) => createHash('sha256').update(normalizeVerificationKey(key)).digest('hex');

/** A new single-use key for one purpose; any earlier unused key of that purpose stops working. */
export async function issueKey(
  db: Kysely<Schema>,
  userId: string,
  purpose: KeyPurpose,
  targetEmail: string,
  expiresAt: Date,
): Promise<string> {
  const key = generateVerificationKey();
  await db.transaction().execute(async (trx) => {
    await revokeKeys(trx, userId, purpose);
    await trx
      .insertInto('verification_keys')
      .values({
        id: randomUUID(),
        user_id: userId,
        purpose,
        key_hash: digest(key),
        target_email: targetEmail,
        expires_at: expiresAt,
      })
      .execute();
  });
  return key;
}

/** Every unused key of one purpose stops working (a new one is issued, or too many wrong ones were tried). */
export async function revokeKeys(db: Kysely<Schema>, userId: string, purpose: KeyPurpose): Promise<void> {
  await db
    .updateTable('verification_keys')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export type KeyCheck = { status: 'valid'; targetEmail: string } | { status: 'bad' } | { status: 'expired' };

/** Checks a key at time `now` and, when it is valid, spends it (it cannot be used again). */
export async function consumeKey(
  db: Kysely<Schema>,
  userId: string,
  purpose: KeyPurpose,
  key: string,
  now: Date,
): Promise<KeyCheck> {
  const row = await db
    .selectFrom('verification_keys')
    .select(['id', 'expires_at', 'target_email'])
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('key_hash', '=', digest(key))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { status: 'bad' };
  if (row.expires_at.getTime() <= now.getTime()) return { status: 'expired' };
  const spent = await db
    .updateTable('verification_keys')
    .set({ used_at: new Date() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  // Two concurrent requests with the same key: only the one that spent it succeeds.
  if (Number(spent.numUpdatedRows) !== 1) return { status: 'bad' };
  return { status: 'valid', targetEmail: row.target_email };
}
