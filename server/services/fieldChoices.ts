import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { MAX_FIELD_CHOICES, type FieldChoice } from '../../src/domain/forms/fieldChoices.ts';
import { rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';

/**
 * The rows of a reference a form field offers, labelled in `locale`, in natural-key order, when the reference has at most
 * {@link MAX_FIELD_CHOICES} rows (null beyond: never more than that many are read). `used` then gives the labels of
 * those natural keys only, for lists showing values.
 */
export async function referenceChoices(
  ctx: ServerContext,
  application: ApplicationRow,
  target: DataEntry,
  locale: string,
  used: readonly string[] = [],
): Promise<{ choices: FieldChoice[] | null; labels: FieldChoice[] }> {
  const rowsOf = () =>
    ctx.db
      .selectFrom('data_rows')
      .select(['natural_key', 'values'])
      .where('application_id', '=', application.id)
      .where('data_name', '=', target.name)
      .where('file_id', 'is', null);
  const label = (row: { natural_key: string; values: unknown }): FieldChoice => ({
    naturalKey: row.natural_key,
    label: rowDisplay(
      target,
      row.values as Record<string, unknown>,
      row.natural_key,
      locale,
      application.model.defaultLanguage,
    ),
  });
  const first = await rowsOf()
    .orderBy('natural_key')
    .limit(MAX_FIELD_CHOICES + 1)
    .execute();
  if (first.length <= MAX_FIELD_CHOICES) {
    const choices = first.map(label);
    const wanted = new Set(used);
    return { choices, labels: choices.filter((c) => wanted.has(c.naturalKey)) };
  }
  const keys = [...new Set(used)];
  const labels = keys.length
    ? (await rowsOf().where('natural_key', 'in', keys).orderBy('natural_key').execute()).map(label)
    : [];
  return { choices: null, labels };
}
