import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Schema } from './schema.ts';

export interface LateTransaction {
  /** The transaction, begun at the first call. */
  begin(): Promise<Transaction<Schema>>;
  /** The transaction when begun, otherwise the database: what reads the state the work has left so far. */
  current(): Kysely<Schema> | Transaction<Schema>;
}

/**
 * Runs work whose writes come only after reading and checking something long, such as an uploaded file arriving
 * over the network: the transaction is begun at its first write, so a connection is not held by an upload still
 * being received and checked (the embedded database has one connection, a PostgreSQL pool a few; readers would
 * queue behind uploads). Committed when the work ends, rolled back when it throws. Reads made before the first
 * write see committed data as the transaction's first statement would (read committed).
 */
export async function withLateTransaction<T>(
  db: Kysely<Schema>,
  work: (transaction: LateTransaction) => Promise<T>,
): Promise<T> {
  let begun: Promise<ControlledTransaction<Schema>> | undefined;
  let trx: ControlledTransaction<Schema> | undefined;
  const late: LateTransaction = {
    begin() {
      begun ??= db
        .startTransaction()
        .execute()
        .then((started) => (trx = started));
      return begun;
    },
    current: () => trx ?? db,
  };
  try {
    const result = await work(late);
    const started = await begun;
    await started?.commit().execute();
    return result;
  } catch (error) {
    // The work's failure is what the caller must see. A transaction that could not begin has nothing to roll back;
    // one whose rollback fails ended with its session (PostgreSQL rolls back what a lost session held).
    const started = await begun?.catch(() => undefined);
    await started
      ?.rollback()
      .execute()
      .catch(() => undefined);
    throw error;
  }
}
