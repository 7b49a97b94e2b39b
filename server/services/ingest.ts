import type { CsvDeposit, CsvError, CsvReport } from '../../src/domain/csv/index.ts';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { CheckOverBudget, type CheckPool } from '../workers/checkPool.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { WorkerLost } from '../workers/workerPool.ts';
import { referenceRowsFor } from './dataRows.ts';
import { withNamedSamples } from './namedReferenceRows.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** Errors listed in a refusal; the total is always given. */
export const MAX_REPORTED_ERRORS = 1000;

/** A file refused by the CSV engine: 400 INVALID_CSV with its errors. */
export class CsvRejected extends Refusal {
  constructor(readonly report: CsvReport) {
    super('INVALID_CSV', { errorCount: report.errorCount, truncated: report.truncated });
  }
}

/** A file whose checking took more time than a file may: refused at the line it had reached, nothing stored. */
export class CheckBudgetExceeded extends Refusal {
  constructor(over: CheckOverBudget) {
    super('CHECK_BUDGET_EXCEEDED', { lineNumber: over.lineNumber, budgetSeconds: over.budgetMs / 1000 });
  }
}

/** The worker checking the file crashed, or was stopped for another file it was checking: nothing stored. */
export class CheckInterrupted extends Refusal {
  constructor() {
    super('CHECK_INTERRUPTED');
  }
}

/** What a failure of the checking pool means to the caller: over budget or interrupted; anything else as it is. */
export function checkFailure(error: unknown): unknown {
  if (error instanceof CheckOverBudget) return new CheckBudgetExceeded(error);
  if (error instanceof WorkerLost) return new CheckInterrupted();
  return error;
}

/** Errors reported once each, in line order. */
function distinct(errors: CsvError[]): CsvError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.lineNumber, error.code, error.params, error.column ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Bytes go to the worker in pieces of at most this size (a file read from the database comes in 4 MB slices). */
const PIECE_BYTES = 256 * 1024;
/**
 * Pieces sent before their answer is waited for: the worker goes on checking while this thread writes a batch
 * (the embedded database runs its statements on this thread).
 */
const PIECES_AHEAD = 4;
/**
 * Checked batches wait until this much of them is ready before the first is written, and checking waits while
 * more than MAX_WAITING_CHARACTERS are. A file whose checking is slow (costly expressions) is thus mostly or wholly
 * checked before its transaction begins, instead of holding a database session, the embedded database's only one,
 * between batches; a fast one starts writing after a few batches, its writing overlapping its checking.
 */
const WRITE_AHEAD_CHARACTERS = 2 * 1024 * 1024;
const MAX_WAITING_CHARACTERS = 4 * 1024 * 1024;

export interface IngestTarget {
  db: Kysely<Schema> | Transaction<Schema>;
  checks: CheckPool;
  applicationId: string;
  model: ApplicationModel;
  entry: DataEntry;
  fileName: string;
  deposit?: CsvDeposit;
  /** Each batch also gives its rows' lines, natural keys and places, for rights checks. */
  places?: boolean;
  /** Rows per batch handed to `store`, when the writer wants other than the worker's default. */
  batchRows?: number;
  /** Who sent the file: its errors name only rows they may be told of (namedReferenceRows.ts). */
  reader?: Rights;
}

/**
 * Stores a batch of checked rows; `failed` is aborted when the file fails meanwhile, so that a write waiting for its
 * turn to begin (lateTransaction.ts) gives it up rather than begin only to be rolled back.
 */
export type StoreBatch = (batch: CheckedBatch, failed: AbortSignal) => Promise<void>;

/** Writes checked batches one at a time, in order, beginning once enough of them wait (see WRITE_AHEAD_CHARACTERS). */
class BatchWriter {
  private readonly waiting: CheckedBatch[] = [];
  private waitingCharacters = 0;
  private begun = false;
  private stopped = false;
  private writing: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  /** Told to the batch in flight when the file fails: a write still waiting for its turn to begin gives it up. */
  private readonly failed = new AbortController();

  constructor(private readonly store: StoreBatch) {}

  add(batches: CheckedBatch[]) {
    this.throwFailure();
    for (const batch of batches) {
      this.waiting.push(batch);
      this.waitingCharacters += batch.characters;
    }
    if (this.waitingCharacters >= WRITE_AHEAD_CHARACTERS) this.begun = true;
    this.next();
  }

  /** Waits while too much is waiting to be written. */
  async room() {
    while (this.waitingCharacters > MAX_WAITING_CHARACTERS && this.writing) await this.writing;
    this.throwFailure();
  }

  /** Writes what waits and answers once all is written. */
  async end() {
    this.begun = true;
    this.next();
    while (this.writing) await this.writing;
    this.throwFailure();
  }

  /** The file failed: a write not yet begun gives up its turn (the file may have failed because its client left). */
  abandon(reason: unknown) {
    this.failed.abort(reason);
  }

  /** Writes no more, and waits for the statement in flight: never leave one running on a transaction about to end. */
  async stop() {
    this.stopped = true;
    while (this.writing) await this.writing;
  }

  private next() {
    if (this.writing || !this.begun || this.stopped || this.failure || this.waiting.length === 0) return;
    const batch = this.waiting.shift()!;
    this.waitingCharacters -= batch.characters;
    // A store that throws at once fails the file as one whose write fails: thrown here, from the previous write's
    // reaction, it would reject a promise nobody may be waiting for.
    this.writing = Promise.resolve()
      .then(() => this.store(batch, this.failed.signal))
      .then(
        () => {
          this.writing = undefined;
          this.next();
        },
        (error: unknown) => {
          this.writing = undefined;
          this.failure = { error };
        },
      );
  }

  private throwFailure() {
    if (this.failure) throw this.failure.error;
  }
}

/**
 * Runs a file through the shared CSV engine, in a worker thread, as it streams: valid rows are handed to `store` in
 * batches (documents ready for the database), the writing of batches overlapping the checking of the next ones
 * (one batch in flight at a time, so the caller's transaction sees them in order). Without `store` the file is
 * only checked. When the file has errors nothing is kept: CsvRejected is thrown with the report and the caller's
 * transaction is rolled back; so it is when the file's checking runs out of time (CheckBudgetExceeded) or its
 * worker is lost (CheckInterrupted). Answers the number of rows.
 */
export async function ingestCsv(
  target: IngestTarget,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  store: StoreBatch | null,
  beforeFinish: () => void = () => undefined,
): Promise<number> {
  const check = target.checks.open({
    model: target.model,
    dataName: target.entry.name,
    fileName: target.fileName,
    maxErrors: MAX_REPORTED_ERRORS,
    deposit: target.deposit,
    references: await referenceRowsFor(target.db, target.applicationId, target.model, target.entry),
    rows: store === null ? 'none' : target.places ? 'documentsAndPlaces' : 'documents',
    batchRows: target.batchRows,
  });
  const writer = new BatchWriter(store ?? (async () => undefined));
  const answers: Promise<CheckedBatch[]>[] = [];
  try {
    for await (const bytes of chunks) {
      for (let start = 0; start < bytes.byteLength; start += PIECE_BYTES) {
        const answer = check.push(bytes.subarray(start, start + PIECE_BYTES));
        // Observed in turn below. Meanwhile a failure (the worker lost, the budget spent) ends at once a write
        // waiting for its turn or for the file's last byte, rather than let it begin only to be undone.
        answer.catch((error: unknown) => writer.abandon(error));
        answers.push(answer);
        if (answers.length >= PIECES_AHEAD) writer.add(await answers.shift()!);
        await writer.room();
      }
    }
    beforeFinish();
    while (answers.length > 0) writer.add(await answers.shift()!);
    const { report, batches } = await check.finish();
    if (report.errorCount > 0) {
      const errors = distinct(report.errors);
      const { db, applicationId, model, reader } = target;
      throw new CsvRejected({ ...report, errors: await withNamedSamples(db, applicationId, model, reader, errors) });
    }
    writer.add(batches);
    await writer.end();
    return report.rowCount;
  } catch (error) {
    writer.abandon(error);
    throw checkFailure(error);
  } finally {
    check.close();
    await writer.stop();
  }
}
