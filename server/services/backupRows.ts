import type { Kysely } from 'kysely';
import { EntryCsvWriter } from '../../src/domain/bundle/entryCsv.ts';
import { isVersioned, type BundleData } from '../../src/domain/bundle/manifest.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { Schema } from '../db/schema.ts';
import { pad } from './bundlePaths.ts';
import { rowTextsFor } from './dataRows.ts';
import type { DynamicColumns } from './dynamicColumns.ts';
import { rowPages, shapesOf } from './entryRowsByShape.ts';
import type { ZipOutput } from './zipOutput.ts';

/** Every row of `entries` as CSV, in load order: a file per shape of an entry's rows. */
export async function* backupRows(
  zip: ZipOutput,
  db: Kysely<Schema>,
  applicationId: string,
  entries: readonly DataEntry[],
  dynamics: DynamicColumns,
): AsyncGenerator<Uint8Array, BundleData[]> {
  const data: BundleData[] = [];
  for (const [index, entry] of entries.entries()) {
    const texts = await rowTextsFor(db, applicationId, entry);
    const shapes = await shapesOf(db, applicationId, entry, texts);
    const item: BundleData = { dataName: entry.name, kind: entry.kind, restored: !isVersioned(entry), files: [] };
    for (const [part, shape] of shapes.entries()) {
      const writer = new EntryCsvWriter(entry, shape.shape, { dynamicHeader: dynamics.header, texts });
      let rows = 0;
      const lines = async function* () {
        yield writer.head();
        for await (const page of rowPages(db, applicationId, entry, shape)) {
          rows += page.length;
          if (page.length > 0) yield page.map((row) => writer.line(row)).join('');
        }
      };
      const path = `data/${pad(index)}_${entry.name}${part > 0 ? `-${part + 1}` : ''}.csv`;
      item.files.push({ ...(yield* zip.add(path, lines())), rows });
    }
    data.push(item);
  }
  return data;
}
