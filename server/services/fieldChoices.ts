import { sql } from 'kysely';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import { keysDesignatedBy, ReferenceIndex } from '../../src/domain/csv/references.ts';
import type { StoredRow } from '../../src/domain/csv/types.ts';
import { MAX_FIELD_CHOICES, type FieldChoice } from '../../src/domain/forms/fieldChoices.ts';
import { rowDisplay } from '../../src/domain/rows/rowDisplay.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { namedRowsSql } from './namedReferenceRows.ts';

/**
 * The rows of a reference a form field offers, labelled in `locale`, in natural-key order, when the reference has at most
 * {@link MAX_FIELD_CHOICES} rows (null beyond: never more than that many are read). `used` then gives the labels of
 * those values only, for lists showing values. Of a reference dividing its rows by rights, only the rows `reader` may
 * read are offered and labelled (namedReferenceRows.ts).
 */
export async function referenceChoices(
  ctx: ServerContext,
  application: ApplicationRow,
  target: DataEntry,
  locale: string,
  reader: Rights,
  used: readonly string[] = [],
): Promise<{ choices: FieldChoice[] | null; labels: FieldChoice[] }> {
  const rowsOf = () =>
    ctx.db
      .selectFrom('data_rows')
      .select(['natural_key', 'values'])
      .where('application_id', '=', application.id)
      .where('data_name', '=', target.name)
      .where('file_id', 'is', null)
      .where(namedRowsSql(target, reader));
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
  return { choices: null, labels: await referenceLabels(ctx, application, target, locale, reader, used) };
}

/**
 * The labels in `locale` of the rows that values of a form field designate, whatever the reference's size: each
 * value as it is stored (typed, trimmed) with its row's label, for the values that designate a row. Only the rows
 * those values may designate are read (`keysDesignatedBy`, as a save checks them), never the reference.
 */
export async function referenceLabels(
  ctx: ServerContext,
  application: ApplicationRow,
  target: DataEntry,
  locale: string,
  reader: Rights,
  values: readonly string[],
): Promise<FieldChoice[]> {
  const texts = [...new Set(values)].filter((text) => text !== '');
  const keys = [...new Set(texts.flatMap((text) => keysDesignatedBy(text, target.naturalKey.length)))];
  if (keys.length === 0) return [];
  // One look-up by each column's index: an `or` of the two columns kept neither index, and the database read every
  // row of the reference to label a page's few values.
  const named = (key: 'hierarchical_key' | 'natural_key') =>
    ctx.db
      .selectFrom('data_rows')
      .select(['natural_key', 'hierarchical_key', 'values'])
      .where('application_id', '=', application.id)
      .where('data_name', '=', target.name)
      .where('file_id', 'is', null)
      .where(sql<boolean>`${sql.ref(key)} = any(${keys}::text[])`)
      .where(namedRowsSql(target, reader));
  const found = await named('hierarchical_key').unionAll(named('natural_key')).execute();
  const rows = [...new Map(found.map((row) => [row.hierarchical_key, row])).values()];
  const index = new ReferenceIndex(
    target.name,
    rows.map((row) => ({
      naturalKey: row.natural_key,
      hierarchicalKey: row.hierarchical_key,
      values: row.values as StoredRow['values'],
    })),
  );
  return texts.flatMap((text) => {
    const row = index.resolve(text);
    return row
      ? [
          {
            naturalKey: text,
            label: rowDisplay(target, row.values, row.naturalKey, locale, application.model.defaultLanguage),
          },
        ]
      : [];
  });
}
