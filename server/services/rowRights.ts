import { sql, type Kysely } from 'kysely';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { CsvError } from '../../src/domain/csv/index.ts';
import { placeOf, type Rights } from '../../src/domain/rights/access.ts';
import type { Schema } from '../db/schema.ts';
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

/**
 * Line errors for rows that would replace a stored row outside what the rights allow: a natural key that leaves out
 * a scope or time component names one row whatever its place, and an upsert of a line in the depositor's part moved
 * a row of another part into it. Read by the batch's keys (indexed); only for a depositor of part of the entry.
 */
export async function replacingOutsideRights(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  rights: Rights,
  batch: CheckedBatch,
  into: CsvError[],
) {
  const rows = batch.rows!;
  const stored = await db
    .selectFrom('data_rows')
    .select(['natural_key', 'values', 'period_start', 'period_end'])
    .where('application_id', '=', applicationId)
    .where('data_name', '=', entry.name)
    .where('file_id', 'is', null)
    .where(sql<boolean>`natural_key = any(${rows.map((row) => row.naturalKey)}::text[])`)
    .execute();
  const outside = new Set(
    stored
      .filter(
        (row) => !rights.allows('depot', entry.name, placeOf(entry, row.values, row.period_start, row.period_end)),
      )
      .map((row) => row.natural_key),
  );
  const refused = new Set(into.map((error) => error.lineNumber));
  for (const row of rows)
    if (outside.has(row.naturalKey) && !refused.has(row.lineNumber))
      into.push({ lineNumber: row.lineNumber, code: 'norightfordepot', params: { naturalKey: row.naturalKey } });
}
