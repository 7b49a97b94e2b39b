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

/** Makes a configuration update's transaction wait for the writes under way, and keeps new ones out until it ends. */
export async function excludeWrites(trx: Transaction<Schema>, applicationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${configurationLockKey(applicationId)})`.execute(trx);
}
