import { located } from './bundleRefused.ts';
import { refreshCount, upsertRows } from './dataRows.ts';
import { ingestCsv } from './ingest.ts';
import type { RestoreRun } from './restoreRun.ts';
import { verified } from './verifiedEntries.ts';

/** Loads the rows of every reference and data type the bundle restores, in load order. Answers how many. */
export async function restoreRows(run: RestoreRun): Promise<number> {
  const { ctx, writes, archive, manifest, model, applicationId: id, events, counted, progress } = run;
  const { db, batch, batchRows } = writes;
  let loaded = 0;
  const order = new Map(model.loadOrder.map((dataName, index) => [dataName, index]));
  const restored = manifest.data
    .filter((data) => data.restored)
    .sort((a, b) => order.get(a.dataName)! - order.get(b.dataName)!);
  for (const data of restored) {
    const entry = model.data.find((d) => d.name === data.dataName)!;
    for (const file of data.files) {
      events.info('bundle.restore.data', { dataName: entry.name, file: file.path });
      loaded += await ingestCsv(
        { db, checks: ctx.checks, applicationId: id, model, entry, fileName: file.path, batchRows },
        verified(archive, file, counted),
        async (rows) => {
          await batch(() => upsertRows(db, id, entry.name, rows));
        },
      ).catch((error: unknown) => Promise.reject(located(error, file.path, entry.name)));
      progress();
    }
    await refreshCount(db, id, entry.name);
  }
  return loaded;
}
