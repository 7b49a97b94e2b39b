import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Transaction } from 'kysely';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Schema } from './schema.ts';

/** The idempotency key a request holds, and which claim of it this request is (http/idempotency.ts). */
export interface KeyClaim {
  scope: string;
  key: string;
  claim: string;
}

/** A request's work: the key it claimed, until its answer is kept or the key freed. */
interface Work {
  claim: KeyClaim | null;
}

const works = new AsyncLocalStorage<Work>();

/**
 * Runs a request's handling; the key it may claim is then known to the transactions of its work. Work that outlives
 * the request inherits this context: a loop serving other requests (the job runner) is started outside any request,
 * or it would mark this request's key with their work.
 */
export function inRequestWork<T>(handle: () => T): T {
  return works.run({ claim: null }, handle);
}

/**
 * Names the key claimed by the request being handled, for the transactions of its work; answers what forgets it
 * once the request's answer is kept or its key freed: work the request left running afterwards (a job it started)
 * is no longer its work.
 */
export function claimForWork(claim: KeyClaim): () => void {
  const work = works.getStore();
  if (!work) return () => undefined;
  work.claim = claim;
  return () => {
    if (work.claim === claim) work.claim = null;
  };
}

/**
 * Runs the work of a transaction, then records its request's key applied as the transaction's last statement
 * ({@link recordApplied}): the key's row is locked from then until the commit only, so that its lease's renewal and a
 * retry asking for the key do not wait for the whole work (a long one held connections of the pool meanwhile).
 */
export async function applying<T>(trx: Transaction<Schema>, work: () => Promise<T>): Promise<T> {
  const result = await work();
  await recordApplied(trx);
  return result;
}

/**
 * Records, within the transaction that applies a request's work, that its idempotency key was applied: should its
 * answer never be kept (the server stopped, the database went away between the commit and the answer), a retry with
 * the key learns the work was applied instead of applying it a second time. A key another retry took over meanwhile
 * (this request's lease ran out) is no longer this request's: its work is refused and rolled back, so that only one
 * of the two applies. Outside a request with a key, nothing is recorded.
 */
export async function recordApplied(trx: Transaction<Schema>): Promise<void> {
  const claim = works.getStore()?.claim;
  if (!claim) return;
  const marked = await trx
    .updateTable('idempotency_keys')
    .set({ status: sql<'applied' | 'done'>`case when status = 'done' then 'done' else 'applied' end` })
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('claim', '=', claim.claim)
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) throw new Refusal('IDEMPOTENCY_KEY_IN_PROGRESS', { key: claim.key });
}
