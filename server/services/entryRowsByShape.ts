import { sql, type Kysely } from 'kysely';
import { hasSingleShape, shapeOf, type RowShape } from '../../src/domain/bundle/entryCsv.ts';
import { isVersioned } from '../../src/domain/bundle/manifest.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { RowTexts, WrittenRow } from '../../src/domain/rows/rowTexts.ts';
import type { Schema } from '../db/schema.ts';
import { shapeDigest, shapesByKey, storedShape, type StoredShape } from './storedShapes.ts';

/** Rows are read this many at a time, by natural key. */
const ROW_PAGE = 5000;

/**
 * The rows a backup keeps for an entry: the stored rows, or the published ones of a versioned data type; of one
 * shape only when `shape` lists its rows.
 */
export async function* rowPages(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  shape?: EntryShape,
): AsyncGenerator<WrittenRow[]> {
  if (shape?.rowIds) {
    yield* rowsById(db, entry, shape);
    return;
  }
  let after: { naturalKey: string; id: string } | undefined;
  for (;;) {
    let page = keptRows(db, applicationId, entry)
      .select(['id', 'natural_key', 'values'])
      .orderBy('natural_key')
      .orderBy('id')
      .limit(ROW_PAGE);
    if (after) page = page.where(sql<boolean>`(natural_key, id) > (${after.naturalKey}, ${after.id}::uuid)`);
    const rows = await page.execute();
    if (rows.length > 0) yield rows.map((row) => ({ naturalKey: row.natural_key, values: row.values }));
    if (rows.length < ROW_PAGE) return;
    const last = rows[rows.length - 1];
    after = { naturalKey: last.natural_key, id: last.id };
  }
}

const keptRows = (db: Kysely<Schema>, applicationId: string, entry: DataEntry) =>
  db
    .selectFrom('data_rows')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', entry.name)
    .where('file_id', isVersioned(entry) ? 'is not' : 'is', null);

/**
 * The rows of a shape by the ids listed, in that order (sorted as rowPages sorts), a page at a time. A row whose
 * shape changed since it was listed (a write meanwhile) is left out, never written under another shape's header.
 */
async function* rowsById(
  db: Kysely<Schema>,
  entry: DataEntry,
  { rowIds, digests }: EntryShape,
): AsyncGenerator<WrittenRow[]> {
  const ids = rowIds ?? [];
  for (let at = 0; at < ids.length; at += ROW_PAGE) {
    const rows = await db
      .selectFrom('data_rows')
      .select(['natural_key', 'values', shapeDigest(entry).as('digest')])
      .where(sql<boolean>`id = any(${ids.slice(at, at + ROW_PAGE)}::uuid[])`)
      .orderBy('natural_key')
      .orderBy('id')
      .execute();
    yield rows
      .filter((row) => digests?.has(row.digest))
      .map((row) => ({ naturalKey: row.natural_key, values: row.values }));
  }
}

/** One shape of an entry's rows; when the entry has several, its rows' ids in the order they are written. */
export interface EntryShape {
  shape: RowShape;
  rowIds?: string[];
  /** The digests of the stored forms of that shape, by which its rows are found again. */
  digests?: Set<string>;
}

/**
 * The shapes of an entry's rows: computed by the database from the parts that make a shape, so that they are
 * known before any row is written. Each file of an entry of several shapes read every row of the entry and
 * worked out its shape again, as many times as there are shapes (one per loaded file of its own constants, say):
 * the rows of each shape are now listed by one read of the entry, that shape's file reads them only.
 */
export async function shapesOf(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  texts: RowTexts,
): Promise<EntryShape[]> {
  if (hasSingleShape(entry)) return [{ shape: shapeOf(entry, {}, texts) }];
  const stored = await sql<StoredShape>`
    select shape, md5(shape) as digest from (
      select distinct ${storedShape(entry)} as shape from data_rows
      where application_id = ${applicationId} and data_name = ${entry.name} and file_id is ${isVersioned(entry) ? sql`not null` : sql`null`}) s`.execute(
    db,
  );
  const shapes: EntryShape[] = shapesByKey(entry, stored.rows, texts).map((shape) => ({ ...shape, rowIds: [] }));
  if (shapes.length < 2) return shapes.map(({ shape }) => ({ shape }));
  const byDigest = new Map(shapes.flatMap((shape) => [...shape.digests!].map((digest) => [digest, shape] as const)));
  await listRowsByShape(db, applicationId, entry, byDigest);
  return shapes;
}

/** Adds each row's id to its shape's list, in the order rowPages reads them, a page at a time. */
async function listRowsByShape(
  db: Kysely<Schema>,
  applicationId: string,
  entry: DataEntry,
  byDigest: ReadonlyMap<string, EntryShape>,
): Promise<void> {
  let after: { naturalKey: string; id: string } | undefined;
  for (;;) {
    let page = keptRows(db, applicationId, entry)
      .select(['id', 'natural_key', shapeDigest(entry).as('digest')])
      .orderBy('natural_key')
      .orderBy('id')
      .limit(ROW_PAGE);
    if (after) page = page.where(sql<boolean>`(natural_key, id) > (${after.naturalKey}, ${after.id}::uuid)`);
    const rows = await page.execute();
    for (const row of rows) byDigest.get(row.digest)?.rowIds?.push(row.id);
    if (rows.length < ROW_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { naturalKey: last.natural_key, id: last.id };
  }
}
