import { sql, type Kysely, type Transaction } from 'kysely';
import type { ServerContext } from '../context.ts';
import { openJournal, type BulkJournal } from '../db/bulkJournal.ts';
import { withLateTransaction } from '../db/lateTransaction.ts';
import type { Schema } from '../db/schema.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { bothWritten, claimEntryForWrite, NOTHING_WRITTEN, upsertRows, type BatchWritten } from './dataRows.ts';
import { lockEntryForWrite, whileWriting, type EntryLock } from './entryGate.ts';
import { letRequestsThrough } from '../db/sessionOrder.ts';
import type { MovedRows } from './movedRows.ts';
import type { PointedKeys } from './pointedRows.ts';
import { holdConfiguration } from './configurationHold.ts';
import { applying, recordApplied } from '../db/appliedWork.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * Rows per transaction on the embedded database. A batch's statement runs on the server's thread, which answers
 * nobody meanwhile: journaled batches of the worker's usual size held it for about a quarter of a second each, so
 * a page asked during one waited that long, on top of its own work (docs/benchmarks.md).
 */
export const EMBEDDED_BATCH_ROWS = 500;
/**
 * A write of up to this many rows on the embedded database is done in one transaction at its end, as short as a
 * couple of batches: no journal, and the entry's readers are not kept out.
 */
const ONE_TRANSACTION_ROWS = 1000;

/**
 * A check of a batch against the rows stored, run through the write's own connection once the write holds the entry
 * and just before the batch is written: what it reads cannot change before the batch replaces it. False keeps the
 * batch out (the caller then fails the write).
 */
export type BatchGuard = (db: Db) => Promise<boolean>;

/** An upload's writing to an entry's rows (those without a file): all of it is kept or none. */
export interface EntryWrite {
  /** Rows per batch the write is best given (ingest.ts asks the checking worker for batches of this size). */
  readonly batchRows?: number;
  /**
   * Inserts or updates a batch of rows by natural key; answers what it wrote, nothing for a batch kept for the
   * write's end. Once `failed` is aborted, a write still waiting for its turn gives it up.
   */
  upsert(batch: CheckedBatch, failed?: AbortSignal, guard?: BatchGuard): Promise<BatchWritten>;
  /**
   * Runs the write's last statements (its count) and ends it: what `last` answers is the write's answer. `kept`
   * is what the batches `upsert` kept until then wrote.
   */
  finish<T>(last: (db: Db, kept: BatchWritten) => Promise<T>): Promise<T>;
}

/**
 * Runs `work`, which writes batches of rows to an entry and then finishes, as one all-or-nothing write.
 *
 * On PostgreSQL, in one transaction begun at the first batch (lateTransaction.ts): other sessions are free and see
 * the state before it until it commits; other uploads to the entry wait for it (claimEntryForWrite). On the embedded database, whose one session a transaction holds from
 * begin to commit (a 500,000-row reference held every user of every application for about a minute), each batch
 * is a transaction of its own, journaled (bulkJournal.ts), and the entry's readers wait meanwhile (entryGate.ts);
 * finishing drops the journal in the last transaction, a failure undoes the batches written. A small write is kept
 * until its end and done then in one short transaction.
 */
export async function writeEntryRows<T>(
  ctx: ServerContext,
  applicationId: string,
  dataName: string,
  work: (write: EntryWrite) => Promise<T>,
  options: {
    /**
     * Resolves once the file whose rows are written has wholly arrived (uploadSpool.ts): the write holds its entry
     * (and on PostgreSQL a connection) from its first batch, so it begins no earlier; the rows checked meanwhile wait.
     * A write that fails meanwhile gives up waiting (`giveUp`).
     */
    arrival?: (giveUp?: AbortSignal) => Promise<void>;
    /**
     * On the embedded database, run once the write turns out larger than one short transaction, before its first
     * batch: the entry's readers are already kept out.
     */
    beforeLargeWrite?: () => Promise<void>;
    /** Notes the stored rows each batch gives another hierarchical key, before the batch is written. */
    moved?: MovedRows;
    /** Notes the keys each batch points to, found again at the end (a write of them pointing nowhere is refused). */
    pointed?: PointedKeys;
    /** The configuration version the file was checked against: the write holds it, or is refused (configurationHold.ts). */
    modelVersion?: number;
  } = {},
): Promise<T> {
  const arrival = options.arrival ?? (() => Promise.resolve());
  const holdModel = async (db: Db) => {
    if (options.modelVersion !== undefined) await holdConfiguration(db, applicationId, options.modelVersion);
  };
  if (ctx.config.databaseUrl) {
    return withLateTransaction(ctx.db, (late) => {
      let intoEmptyEntry: Promise<boolean> | undefined;
      return work({
        upsert: async (batch, failed, guard) => {
          await arrival(failed);
          const trx = await late.begin(failed);
          intoEmptyEntry ??= claimEntryForWrite(trx, applicationId, dataName).then(async (empty) => {
            await options.pointed?.hold(trx);
            await holdModel(trx);
            return empty;
          });
          const empty = await intoEmptyEntry;
          await options.pointed?.note(trx, batch);
          if (guard && !(await guard(trx))) return NOTHING_WRITTEN;
          if (!empty) await options.moved?.note(trx, batch);
          return upsertRows(trx, applicationId, dataName, batch, undefined, empty);
        },
        finish: async (last) => {
          const trx = await late.begin();
          await holdModel(trx);
          await options.pointed?.refuseMissing(trx);
          const answer = await last(trx, NOTHING_WRITTEN);
          await recordApplied(trx);
          return answer;
        },
      });
    });
  }
  // Batches wait here until they are more than one short transaction's worth: then the write is journaled.
  const pending: Array<{ batch: CheckedBatch; guard?: BatchGuard }> = [];
  let pendingRows = 0;
  let large: Promise<{ journal: BulkJournal; lock: EntryLock }> | undefined;
  let finished = false;
  const startLarge = async (giveUp: AbortSignal | undefined) => {
    await arrival(giveUp);
    const lock = await lockEntryForWrite(applicationId, dataName, giveUp);
    try {
      await lock.closeToReaders();
      await options.beforeLargeWrite?.();
      const journal = await openJournal(ctx.db, applicationId, dataName);
      // Said because the entry's pages wait from now until the write ends.
      ctx.log(`a large write to ${dataName} begins, in steps: its readers wait until it ends`);
      return { journal, lock };
    } catch (error) {
      lock.release();
      throw error;
    }
  };
  let journaledRows = 0;
  let analyzeAt = ONE_TRANSACTION_ROWS;
  const writeJournaled = async (journal: BulkJournal, { batch, guard }: (typeof pending)[number]) => {
    const begun = performance.now();
    const written = await ctx.db.transaction().execute(async (trx) => {
      if (guard && !(await guard(trx))) return NOTHING_WRITTEN;
      if (!journal.emptyBefore) await options.moved?.note(trx, batch);
      await options.pointed?.note(trx, batch);
      return upsertRows(trx, applicationId, dataName, batch, journal);
    });
    journaledRows += batch.count;
    // The embedded database has no autovacuum to refresh statistics while a write fills an entry: planned from an
    // entry that looked empty, the journal's look-up of the rows a batch replaces walked the wrong index over every
    // row of the entry at each batch, and an upload's time grew with the square of its rows. The entry's columns
    // are analyzed again whenever the write has doubled its rows, a handful of times whatever its size; those two
    // columns only, since analyzing the whole table held the embedded database for half a second each time.
    if (journaledRows >= analyzeAt) {
      analyzeAt *= 2;
      await sql`analyze data_rows (application_id, data_name)`.execute(ctx.db);
    }
    await letRequestsThrough(performance.now() - begun);
    return written;
  };
  try {
    return await work({
      batchRows: EMBEDDED_BATCH_ROWS,
      async upsert(batch, failed, guard) {
        if (!large && pendingRows + batch.count <= ONE_TRANSACTION_ROWS) {
          pending.push({ batch, guard });
          pendingRows += batch.count;
          return NOTHING_WRITTEN;
        }
        large ??= startLarge(failed);
        const { journal } = await large;
        let written = NOTHING_WRITTEN;
        for (const waiting of pending.splice(0)) written = bothWritten(written, await writeJournaled(journal, waiting));
        return bothWritten(written, await writeJournaled(journal, { batch, guard }));
      },
      async finish(last) {
        if (!large) {
          // A small write: one transaction, all or nothing by itself; readers see it before or after.
          return whileWriting(applicationId, dataName, () =>
            ctx.db.transaction().execute((trx) =>
              applying(trx, async () => {
                let written = NOTHING_WRITTEN;
                for (const { batch, guard } of pending) {
                  if (guard && !(await guard(trx))) continue;
                  await options.moved?.note(trx, batch);
                  await options.pointed?.note(trx, batch);
                  written = bothWritten(written, await upsertRows(trx, applicationId, dataName, batch));
                }
                await holdModel(trx);
                await options.pointed?.refuseMissing(trx);
                return last(trx, written);
              }),
            ),
          );
        }
        const { journal, lock } = await large;
        const answer = await ctx.db.transaction().execute((trx) =>
          applying(trx, async () => {
            await holdModel(trx);
            await options.pointed?.refuseMissing(trx);
            const result = await last(trx, NOTHING_WRITTEN);
            await journal.close(trx);
            return result;
          }),
        );
        finished = true;
        lock.release();
        return answer;
      },
    });
  } catch (error) {
    const open = await large?.catch(() => undefined);
    if (open && !finished) await undoThenRelease(ctx, open);
    else open?.lock.release();
    throw error;
  }
}

/** Before an undo that failed (the disk still full, say) is tried again; the entry's readers wait meanwhile. */
const UNDO_RETRY_MS = 5_000;

/**
 * Undoes a failed write and then lets the entry's readers in, never before: they would see part of it. An undo
 * that fails is tried again later, without keeping the upload's answer waiting; once the instance has stopped, the
 * next start undoes it (its journal is kept), and the entry is let go: nothing reads it here any more.
 */
async function undoThenRelease(ctx: ServerContext, open: { journal: BulkJournal; lock: EntryLock }): Promise<void> {
  try {
    await open.journal.undo(ctx.db);
    open.lock.release();
  } catch (error) {
    if (ctx.stopped.aborted) {
      ctx.log('a failed write is left for the next start to undo: the instance has stopped');
      open.lock.release();
      return;
    }
    ctx.log(
      `undoing a failed write failed, tried again in ${UNDO_RETRY_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}`,
    );
    setTimeout(() => void undoThenRelease(ctx, open), UNDO_RETRY_MS).unref();
  }
}
