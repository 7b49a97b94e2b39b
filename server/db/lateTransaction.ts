import type { ControlledTransaction, Kysely, Transaction } from 'kysely';
import type { Schema } from './schema.ts';
import { POSTGRES_POOL_SIZE } from './database.ts';
import { waitForTurn, type TurnQueue } from './turnQueue.ts';

export interface LateTransaction {
  /**
   * The transaction, begun at the first call. When it must wait for its turn, the first call's `giveUp` ends the
   * wait: the work failed meanwhile (its client left), and it rejects with the signal's reason.
   */
  begin(giveUp?: AbortSignal): Promise<Transaction<Schema>>;
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
  let slot: (() => void) | undefined;
  let ended = false;
  const late: LateTransaction = {
    begin(giveUp) {
      begun ??= takeSlot(giveUp).then(async (release) => {
        if (ended) {
          release();
          throw new Error('the work ended before its transaction could begin');
        }
        slot = release;
        trx = await db.startTransaction().execute();
        return trx;
      });
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
    // The work's failure is what the caller must see. A transaction still waiting for its turn is never begun
    // (`ended`), one that could not begin has nothing to roll back, and one whose rollback fails ended with its
    // session (PostgreSQL rolls back what a lost session held).
    ended = true;
    const settled = begun?.catch(() => undefined);
    const started = slot ? await settled : undefined;
    await started
      ?.rollback()
      .execute()
      .catch(() => undefined);
    throw error;
  } finally {
    ended = true;
    slot?.();
  }
}

/**
 * Late transactions open at once in one instance, at most: each holds one of the pool's connections for as long as
 * its upload takes to arrive, and uploads sent over slow networks, each letting the next one in once it waits for
 * its bytes (uploadLanes.ts), took every connection: pages waited for the uploads' last bytes. The rest of the pool
 * is the readers'. Those past the bound wait for their turn before their first write, holding no connection.
 */
export const LATE_TRANSACTIONS = POSTGRES_POOL_SIZE - 4;

let openTransactions = 0;
const waitingTurn: TurnQueue = [];

/** Late transactions waiting for their turn to begin, in this instance. */
export const lateTransactionsWaiting = (): number => waitingTurn.length;

async function takeSlot(giveUp?: AbortSignal): Promise<() => void> {
  if (giveUp?.aborted) throw giveUp.reason;
  // A slot ending with a transaction waiting is handed to it, not given back.
  if (openTransactions < LATE_TRANSACTIONS) openTransactions += 1;
  else await waitForTurn(waitingTurn, giveUp);
  return releaseOnce();
}

/** Gives the slot to the next waiting transaction, or back; once only, whatever calls it. */
function releaseOnce(): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waitingTurn.shift();
    if (next) next();
    else openTransactions -= 1;
  };
}
