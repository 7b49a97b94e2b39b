import { sql, type Kysely, type Transaction } from 'kysely';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Schema } from '../db/schema.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** The advisory lock of an application's configuration (entries have theirs: pointedRows.ts `entryLockKey`). */
const configurationLockKey = (applicationId: string) => sql`hashtextextended(${`configuration/${applicationId}`}, 0)`;

/**
 * Keeps configuration updates of the application out until the transaction ends, and refuses the write
 * (APPLICATION_CHANGED_MEANWHILE) when the configuration is no longer the one its file was checked against
 * (`modelVersion`): rows checked against a model an update replaced meanwhile would keep the values of a component
 * it removed, or land in an entry it removed. Writes hold the lock shared, after their entries' locks; an update
 * takes it alone (`excludeWrites`), so it waits for the writes under way and then weighs their rows. On the
 * embedded database, whose transactions follow one another, the check in a write's last transaction suffices.
 */
export async function holdConfiguration(db: Db, applicationId: string, modelVersion: number): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${configurationLockKey(applicationId)})`.execute(db);
  const current = await db
    .selectFrom('applications')
    .select('model_version')
    .where('id', '=', applicationId)
    .executeTakeFirst();
  if (Number(current?.model_version) !== modelVersion) throw new Refusal('APPLICATION_CHANGED_MEANWHILE');
}

/**
 * Makes a configuration update's transaction wait for the writes under way, and keeps new ones out until it ends.
 * The wait is bounded (`leftMs`, what is left of the update's `waitMs`): writes sent meanwhile queue behind the update, so an update waiting for a long
 * upload would hold every depositor of the application as long; it is refused instead (`writesUnderWay`).
 */
export async function excludeWrites(
  trx: Transaction<Schema>,
  applicationId: string,
  leftMs: number,
  waitMs: number,
): Promise<void> {
  await sql`select set_config('lock_timeout', ${`${Math.round(leftMs)}ms`}, true)`.execute(trx);
  try {
    await sql`select pg_advisory_xact_lock(${configurationLockKey(applicationId)})`.execute(trx);
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) throw writesUnderWay(waitMs);
    throw error;
  }
  await sql`set local lock_timeout to default`.execute(trx);
}

/** PostgreSQL's state for a lock not obtained within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** The refusal of an update that waited `waitMs` for the writes under way: sent again once they are done. */
export const writesUnderWay = (waitMs: number) => {
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new Refusal('WRITES_UNDER_WAY', { retryAfterSeconds }, retryAfterSeconds);
};
