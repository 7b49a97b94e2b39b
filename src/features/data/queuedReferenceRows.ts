import type { ApplicationModel } from '@/domain/configuration/model';
import type { CsvCheck, StoredRow } from '@/domain/csv';
import { offlineDb } from '@/offline/db';

/**
 * The rows of uploads into these references still waiting on this device, per reference: a station loaded in the
 * field and its measures can be recorded in one outing, before either reaches the server. Each waiting file is read
 * with the rows known so far (kept copies, then earlier waiting files), in the order the outbox will send them.
 */
export async function queuedReferenceRows(
  validRows: (bytes: Uint8Array, check: CsvCheck) => Promise<StoredRow[]>,
  application: string,
  model: ApplicationModel,
  names: readonly string[],
  known: Record<string, StoredRow[]>,
): Promise<Record<string, StoredRow[]>> {
  const waiting = await offlineDb.outbox
    .where('status')
    .anyOf('queued', 'sending')
    .filter(
      (item) =>
        item.kind === 'reference.upload' && item.summary.name === application && names.includes(item.summary.reference),
    )
    .sortBy('id');
  const queued: Record<string, StoredRow[]> = {};
  for (const item of waiting) {
    const name = item.summary.reference;
    const part = item.request.body.type === 'multipart' ? item.request.body.parts.find((p) => 'blob' in p) : undefined;
    if (!part || !('blob' in part)) continue;
    const references = { ...known };
    for (const [reference, rows] of Object.entries(queued)) references[reference] = [...(known[reference] ?? []), ...rows];
    const rows = await validRows(new Uint8Array(await part.blob.arrayBuffer()), {
      model,
      dataName: name,
      fileName: part.fileName,
      references,
    });
    (queued[name] ??= []).push(...rows);
  }
  return queued;
}
