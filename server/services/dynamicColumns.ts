import { sql, type Kysely } from 'kysely';
import type { ApplicationModel, DataEntry, DynamicComponent } from '../../src/domain/configuration/model.ts';
import { dynamicHeaderText } from '../../src/domain/csv/header.ts';
import type { Schema } from '../db/schema.ts';

/** Reference name → the hierarchical keys of its rows that dynamic columns are wanted for. */
export type NamedRows = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The hierarchical keys and header texts of the rows of the references that dynamic components read: a header is
 * asked for each column of each shape, and a reference of thousands of rows gives as many columns. Only the key and
 * the value the header is made of are read, never a row's whole values. With `named`, only those rows are read
 * (an export asks for the columns its rows have, not the whole reference).
 */
export async function dynamicColumns(
  db: Kysely<Schema>,
  applicationId: string,
  model: ApplicationModel,
  named?: NamedRows,
) {
  // Reference, then the component its headers are read from: two dynamic components may read one reference by two.
  const byReference = new Map<string, Map<string, Map<string, unknown>>>();
  for (const component of model.data.flatMap((entry) => entry.components)) {
    if (component.kind !== 'dynamic') continue;
    const { reference, referenceComponent } = component;
    const headers = byReference.get(reference) ?? new Map<string, Map<string, unknown>>();
    byReference.set(reference, headers);
    if (headers.has(referenceComponent)) continue;
    const only = named && [...(named.get(reference) ?? [])];
    if (only?.length === 0) {
      headers.set(referenceComponent, new Map());
      continue;
    }
    let rows = db
      .selectFrom('data_rows')
      .select(['hierarchical_key', sql<unknown>`values -> ${referenceComponent}::text`.as('header')])
      .where('application_id', '=', applicationId)
      .where('data_name', '=', reference)
      .where('file_id', 'is', null);
    if (only) rows = rows.where(sql<boolean>`hierarchical_key = any(${only}::text[])`);
    const read = await rows.orderBy('natural_key').execute();
    headers.set(referenceComponent, new Map(read.map((row) => [row.hierarchical_key, row.header])));
  }
  const headersOf = (component: DynamicComponent) =>
    byReference.get(component.reference)?.get(component.referenceComponent);
  return {
    keys: (component: DynamicComponent) => [...(headersOf(component)?.keys() ?? [])],
    header: (component: DynamicComponent, key: string) =>
      component.headerPrefix + dynamicHeaderText(headersOf(component)?.get(key)),
  };
}

export type DynamicColumns = Awaited<ReturnType<typeof dynamicColumns>>;

/** The reference rows an entry's dynamic components name, by reference, given each component's named keys. */
export function namedRows(entry: DataEntry, keysOf: (component: DynamicComponent) => Iterable<string>): NamedRows {
  const named = new Map<string, Set<string>>();
  for (const component of entry.components) {
    if (component.kind !== 'dynamic') continue;
    const keys = named.get(component.reference) ?? new Set<string>();
    named.set(component.reference, keys);
    for (const key of keysOf(component)) keys.add(key);
  }
  return named;
}
