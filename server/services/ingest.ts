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

export interface IngestTarget {
  db: Kysely<Schema> | Transaction<Schema>;
  applicationId: string;
  model: ApplicationModel;
  entry: DataEntry;
  fileName: string;
  deposit?: CsvDeposit;
}

/**
 * Runs a file through the shared CSV engine as it streams: valid rows are handed to `store` in batches (until a
 * first error: then nothing more is stored and the caller's transaction is rolled back by the refusal). Answers
 * the number of rows, or throws CsvRejected with the report.
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
  let clean = true;
  const flush = async (force: boolean) => {
    pending.push(...validator.takeRows());
    if (!clean || (!force && pending.length < WRITE_BATCH)) return;
    await store(pending);
    pending = [];
  };
  for await (const bytes of chunks) {
    validator.push(decoder.decode(bytes, { stream: true }));
    await flush(false);
  }
  beforeFinish();
  validator.push(decoder.decode());
  const report = validator.finish();
  clean = report.errorCount === 0;
  if (!clean) throw new CsvRejected({ ...report, errors: distinct(report.errors) });
  await flush(true);
  return report.rowCount;
}
