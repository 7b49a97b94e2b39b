import type { CsvErrorsReport } from '@/domain/csv';
import type { OutboxError } from './outboxTypes';

/**
 * The line errors of a file the server refused (400 INVALID_CSV: `errors` in the body, their total and whether the
 * list was cut in `params`), in the shape the device's own check gives, so that one view shows both.
 */
export function refusedFileReport(error: OutboxError | undefined): CsvErrorsReport | undefined {
  if (!error?.lineErrors?.length) return undefined;
  const params = Array.isArray(error.params) ? {} : error.params;
  const errorCount = typeof params.errorCount === 'number' ? params.errorCount : error.lineErrors.length;
  return { errors: error.lineErrors, errorCount, truncated: params.truncated === true };
}
