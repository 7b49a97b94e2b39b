import { Refusal } from '../../src/domain/errors/refusal.ts';
import { CsvRejected } from './ingest.ts';
import { ZipRefused } from './zipArchive.ts';

/** A bundle that cannot be restored as it is: 400 INVALID_BUNDLE before the work starts, an error event after. */
export class BundleRefused extends Refusal {
  constructor(reason: string, params: Record<string, unknown> = {}) {
    super('INVALID_BUNDLE', { reason, ...params });
  }
}

/** A zip the archive reader refused is a refused bundle; any other error is left as it is. */
export const refusedZip = (error: unknown) =>
  error instanceof ZipRefused ? new BundleRefused(error.reason, error.params) : error;

/** A refused CSV names the file of the bundle it came from. */
export function located(error: unknown, entry: string, dataName: string): unknown {
  if (error instanceof CsvRejected) {
    return new Refusal('BUNDLE_INVALID_CSV', {
      entry,
      dataName,
      errorCount: error.report.errorCount,
      errors: error.report.errors.slice(0, 20),
    });
  }
  return refusedZip(error);
}
