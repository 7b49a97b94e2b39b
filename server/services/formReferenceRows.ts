import type { FormField } from '../../src/domain/configuration/model.ts';
import { REFERENCE_SAMPLE } from '../../src/domain/csv/checkers.ts';
import { keysDesignatedBy } from '../../src/domain/csv/references.ts';
import type { StoredRow } from '../../src/domain/csv/types.ts';
import { referenceTexts } from '../../src/domain/forms/checkFormFields.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { sql, type SqlBool } from 'kysely';
import type { Rights } from '../../src/domain/rights/access.ts';
import { namedRowsSql } from './namedReferenceRows.ts';
import { rowsByEitherKey } from './rowsByEitherKey.ts';

/**
 * The rows a form's reference fields need to be checked (`checkFormFields`): for each reference they point to, the
 * rows the given values may designate and the first few rows that a refusal names. Two index look-ups per
 * reference, whatever its size: any signed-in user saves a form, and reading a whole reference for one value would
 * let them hold the server's memory and time.
 */
export async function formReferenceRows(
  ctx: ServerContext,
  application: ApplicationRow,
  fields: readonly FormField[],
  input: Record<string, unknown>,
  reader: Rights,
): Promise<(name: string) => readonly StoredRow[] | undefined> {
  const loaded = new Map<string, StoredRow[]>();
  for (const [name, texts] of referenceTexts(fields, input)) {
    const reference = application.model.data.find((entry) => entry.name === name);
    const keys = [...new Set(texts.flatMap((text) => keysDesignatedBy(text, reference?.naturalKey.length ?? 1)))];
    // Rows of a reference the reader may not read are, for their form, as if they did not exist.
    const named = reference ? namedRowsSql(reference, reader) : sql<SqlBool>`true`;
    const rowsOf = () =>
      ctx.db
        .selectFrom('data_rows')
        .select(['natural_key', 'hierarchical_key'])
        .where('application_id', '=', application.id)
        .where('data_name', '=', name)
        .where('file_id', 'is', null)
        .where(named);
    const [designated, sample] = await Promise.all([
      keys.length ? rowsByEitherKey(rowsOf, keys).execute() : [],
      rowsOf().orderBy('natural_key').limit(REFERENCE_SAMPLE).execute(),
    ]);
    const rows = new Map(
      [...sample, ...designated].map((row) => [
        row.hierarchical_key,
        { naturalKey: row.natural_key, hierarchicalKey: row.hierarchical_key, values: {} },
      ]),
    );
    loaded.set(name, [...rows.values()]);
  }
  return (name) => loaded.get(name);
}
