import { sql, type RawBuilder } from 'kysely';
import { shapeKey, shapeOf, type RowShape } from '../../src/domain/bundle/entryCsv.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { RowTexts } from '../../src/domain/rows/rowTexts.ts';

/**
 * The shapes of an entry's rows (see entryCsv), as the database works them out: the backup and the export to load
 * again group rows by the same rule, so that the same rows make the same files in both.
 */

/** The parts of a row's values that make its shape, as the database builds them from `values` (JSON text). */
export function storedShape(entry: DataEntry): RawBuilder<string> {
  const parts = entry.components.flatMap((component) => {
    const value = sql`values -> ${component.key}::text`;
    if (component.kind === 'constant') return [sql`${component.key}::text, ${value}`];
    if (component.kind === 'dynamic') {
      return [
        sql`${component.key}::text, coalesce((select jsonb_object_agg(k, '') from jsonb_object_keys(case when jsonb_typeof(${value}) = 'object' then ${value} else '{}'::jsonb end) k), '{}'::jsonb)`,
      ];
    }
    if (component.kind === 'pattern') {
      return [
        sql`${component.key}::text, coalesce((select jsonb_agg(jsonb_build_object('header', g.value -> 'header') order by g.position)
          from jsonb_array_elements(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end) with ordinality g(value, position)), '[]'::jsonb)`,
      ];
    }
    return [];
  });
  return sql<string>`jsonb_build_object(${sql.join(parts)})::text`;
}

/**
 * A row's stored shape as a digest: rows are found again by it. By text, not as values: two stored forms equal as
 * values (1.0 and 1) each have their digest, and both go to the shape their texts make.
 */
export const shapeDigest = (entry: DataEntry) => sql<string>`md5(${storedShape(entry)})`;

/** The condition keeping the rows whose stored shape has one of `digests`. */
export const ofShape = (entry: DataEntry, digests: ReadonlySet<string>) =>
  sql<boolean>`${shapeDigest(entry)} = any(${[...digests]}::text[])`;

/** A stored shape listed by the database: its JSON text and its digest. */
export interface StoredShape {
  shape: string;
  digest: string;
}

/** The shape rows are written under, and the digests of the stored shapes that write as it. */
export interface ShapeDigests {
  shape: RowShape;
  digests: Set<string>;
}

/**
 * Stored shapes merged by the files they make (`shapeKey`: constants by their texts, so `1` and `1.0` share a file),
 * in the order of their keys.
 */
export function shapesByKey(entry: DataEntry, stored: readonly StoredShape[], texts: RowTexts): ShapeDigests[] {
  const byKey = new Map<string, ShapeDigests>();
  for (const { shape: text, digest } of stored) {
    const shape = shapeOf(entry, JSON.parse(text) as Record<string, unknown>, texts);
    const key = shapeKey(shape);
    if (!byKey.has(key)) byKey.set(key, { shape, digests: new Set() });
    byKey.get(key)!.digests.add(digest);
  }
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}
