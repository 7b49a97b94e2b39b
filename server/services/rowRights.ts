import type { CsvError } from '../../src/domain/csv/index.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';

/** Line errors for rows outside what the rights allow (deposit and publication are checked per line). */
export function outsideRights(
  rights: Rights,
  operation: 'depot' | 'publication',
  dataName: string,
  batch: CheckedBatch,
  into: CsvError[],
) {
  for (const row of batch.rows!) {
    if (!rights.allows(operation, dataName, row)) {
      into.push({
        lineNumber: row.lineNumber,
        code: operation === 'depot' ? 'norightfordepot' : 'norightforpublish',
        params: { naturalKey: row.naturalKey },
      });
    }
  }
}
