import { createCsvValidator, type CsvDeposit, type CsvError, type CsvReport, type CsvRow } from '../../src/domain/csv/index.ts';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { ApiError } from '../http/apiError.ts';
import { referenceSourceFor, WRITE_BATCH } from './dataRows.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';

/** Errors listed in a refusal; the total is always given. */
export const MAX_REPORTED_ERRORS = 1000;

/** A file refused by the CSV engine: 400 INVALID_CSV with its errors. */
export class CsvRejected extends ApiError {
  constructor(readonly report: CsvReport) {
    super(400, 'INVALID_CSV', { errorCount: report.errorCount, truncated: report.truncated });
  }
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

/**
 * Text is checked this much at a time, with a turn of the event loop in between while a batch is being written:
 * checking is synchronous, and a file read from the database comes in 4 MB slices that took a second each to
 * check, during which the batch in flight could not send its next statement. PostgreSQL then waited for the
 * checks and the checks for PostgreSQL (a 500,000-row publication took 16 s; HTTP uploads arrive in small chunks
 * and never had this).
 */
const CHECKED_BYTES = 64 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface IngestTarget {
  db: Kysely<Schema> | Transaction<Schema>;
  applicationId: string;
  model: ApplicationModel;
  entry: DataEntry;
  fileName: string;
  deposit?: CsvDeposit;
}

/**
 * Runs a file through the shared CSV engine as it streams: valid rows are handed to `store` in batches, the
 * writing of one batch overlapping the reading and checking of the next (one batch in flight at a time, so the
 * caller's transaction sees them in order). When the file has errors nothing is kept: CsvRejected is thrown with
 * the report and the caller's transaction is rolled back. Answers the number of rows.
 */
export async function ingestCsv(
  target: IngestTarget,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  store: (rows: CsvRow[]) => Promise<void>,
  beforeFinish: () => void = () => undefined,
): Promise<number> {
  const validator = createCsvValidator({
    model: target.model,
    dataName: target.entry.name,
    references: await referenceSourceFor(target.db, target.applicationId, target.model, target.entry),
    fileName: target.fileName,
    maxErrors: MAX_REPORTED_ERRORS,
    deposit: target.deposit,
  });
  const decoder = new TextDecoder('utf-8');
  let pending: CsvRow[] = [];
  let writing: Promise<void> | undefined;
  /** Waits for the batch in flight; its failure is thrown here. */
  const settle = async () => {
    const inFlight = writing;
    writing = undefined;
    await inFlight;
  };
  const flush = async (force: boolean) => {
    // One by one: a recursive entry gives all its rows at the end, too many for a spread into push().
    for (const row of validator.takeRows()) pending.push(row);
    if (pending.length === 0 || (!force && pending.length < WRITE_BATCH)) return;
    await settle();
    const batch = pending;
    pending = [];
    writing = store(batch);
    // Observed by settle(); this keeps a failure from being reported as unhandled meanwhile.
    writing.catch(() => undefined);
  };
  try {
    for await (const bytes of chunks) {
      for (let start = 0; start < bytes.byteLength; start += CHECKED_BYTES) {
        validator.push(decoder.decode(bytes.subarray(start, start + CHECKED_BYTES), { stream: true }));
        await flush(false);
        if (writing) await nextTurn();
      }
    }
    beforeFinish();
    validator.push(decoder.decode());
    const report = validator.finish();
    if (report.errorCount > 0) throw new CsvRejected({ ...report, errors: distinct(report.errors) });
    await flush(true);
    await settle();
    return report.rowCount;
  } finally {
    // Never leave a statement running on the transaction the caller is about to end.
    await writing?.catch(() => undefined);
  }
}
