import type { Kysely } from 'kysely';
import type { ApplicationModel, DynamicComponent } from '../../src/domain/configuration/model.ts';
import { dynamicHeaderText } from '../../src/domain/csv/header.ts';
import type { Schema } from '../db/schema.ts';

/**
 * The hierarchical keys and header texts of every row of the references that dynamic components read, by key: a
 * header is asked for each column of each shape, and a reference of thousands of rows gives as many columns.
 */
export async function dynamicColumns(db: Kysely<Schema>, applicationId: string, model: ApplicationModel) {
  const byReference = new Map<string, Map<string, Record<string, unknown>>>();
  for (const component of model.data.flatMap((entry) => entry.components)) {
    if (component.kind !== 'dynamic' || byReference.has(component.reference)) continue;
    const rows = await db
      .selectFrom('data_rows')
      .select(['hierarchical_key', 'values'])
      .where('application_id', '=', applicationId)
      .where('data_name', '=', component.reference)
      .where('file_id', 'is', null)
      .orderBy('natural_key')
      .execute();
    byReference.set(component.reference, new Map(rows.map((row) => [row.hierarchical_key, row.values])));
  }
  return {
    keys: (component: DynamicComponent) => [...(byReference.get(component.reference)?.keys() ?? [])],
    header: (component: DynamicComponent, key: string) =>
      component.headerPrefix +
      dynamicHeaderText(byReference.get(component.reference)?.get(key)?.[component.referenceComponent]),
  };
}

export type DynamicColumns = Awaited<ReturnType<typeof dynamicColumns>>;
