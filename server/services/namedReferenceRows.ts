import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { ApplicationModel, DataEntry } from '../../src/domain/configuration/model.ts';
import { REFERENCE_SAMPLE } from '../../src/domain/csv/checkers.ts';
import type { CsvError } from '../../src/domain/csv/index.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import type { Schema } from '../db/schema.ts';
import { rowFilterSql } from './rowQueries.ts';

/**
 * Whether a reference divides its own rows by rights (`OA_authorizations` on the reference): a user may then read
 * only part of it, and the rest is not theirs to be named.
 */
export const scopesOwnRows = (reference: DataEntry) => reference.authorization !== null;

/**
 * The condition on `data_rows` of the rows of `reference` that may be named to `reader` — in a form's choices and
 * labels, in the rows a refusal shows as examples, among the rows a form's value may designate. Every row of a
 * reference that does not divide its rows by rights; only the rows they may read of one that does (decisions.md,
 * "What a partial reader can still learn").
 */
export function namedRowsSql(reference: DataEntry, reader: Rights): RawBuilder<SqlBool> {
  if (!scopesOwnRows(reference)) return sql<SqlBool>`true`;
  const filter = reader.rowFilter('extraction', reference.name);
  return filter.kind === 'all' ? sql<SqlBool>`true` : (rowFilterSql(reference, filter) as RawBuilder<SqlBool>);
}

/**
 * A file's errors as `reader` may be told them: an unknown reference value is shown with a few rows of its
 * reference (`referenceValues`); of a reference dividing its rows by rights that they may not read whole, those
 * rows are the first they may read. The checking itself saw the whole reference: a value naming a row they may not
 * read is still a known value.
 */
export async function withNamedSamples(
  db: Kysely<Schema> | Transaction<Schema>,
  applicationId: string,
  model: ApplicationModel,
  reader: Rights | undefined,
  errors: CsvError[],
): Promise<CsvError[]> {
  if (!reader) return errors;
  const resampled = new Map<string, string[]>();
  for (const error of errors) {
    if (error.code !== 'invalidReferenceWithComponent' || !Array.isArray(error.params.referenceValues)) continue;
    const reference = model.data.find((entry) => entry.name === error.params.refType);
    if (!reference || resampled.has(reference.name) || !scopesOwnRows(reference)) continue;
    if (reader.all('extraction', reference.name)) continue;
    const rows = await db
      .selectFrom('data_rows')
      .select('natural_key')
      .where('application_id', '=', applicationId)
      .where('data_name', '=', reference.name)
      .where('file_id', 'is', null)
      .where(namedRowsSql(reference, reader))
      .orderBy('natural_key')
      .limit(REFERENCE_SAMPLE)
      .execute();
    resampled.set(
      reference.name,
      rows.map((row) => row.natural_key),
    );
  }
  if (resampled.size === 0) return errors;
  return errors.map((error) => {
    const sample = error.code === 'invalidReferenceWithComponent' && resampled.get(String(error.params.refType));
    return sample ? { ...error, params: { ...error.params, referenceValues: sample } } : error;
  });
}
