import { randomUUID } from 'node:crypto';
import { BundleRefused, located } from './bundleRefused.ts';
import { refreshCount } from './dataRows.ts';
import { normalizeDateTime } from './deposits.ts';
import { ingestCsv } from './ingest.ts';
import { MAX_CSV_BYTES } from './references.ts';
import type { RestoreRun } from './restoreRun.ts';
import { requireSize, verified } from './verifiedEntries.ts';
import { insertVersionRows } from './versionRows.ts';

/** Deposits every version the bundle holds, with its publication. Answers how many, and the rows published. */
export async function restoreDeposits(run: RestoreRun): Promise<{ deposits: number; rows: number }> {
  const { ctx, writes, archive, manifest, model, applicationId: id, user, events, counted, progress } = run;
  const { db, batch, batchRows, parts: fileParts } = writes;
  let deposits = 0;
  let published = 0;
  const versioned = new Set<string>();
  for (const deposit of manifest.deposits) {
    const entry = model.data.find((d) => d.name === deposit.dataName)!;
    events.info('bundle.restore.deposit', { dataName: entry.name, file: deposit.fileName });
    for (const scope of entry.submission.referenceScopes) {
      const row = await db
        .selectFrom('data_rows')
        .select('id')
        .where('application_id', '=', id)
        .where('data_name', '=', scope.reference)
        .where('hierarchical_key', '=', deposit.scope[scope.component])
        .where('file_id', 'is', null)
        .executeTakeFirst();
      if (!row) throw new BundleRefused('badDepositScope', { entry: deposit.path });
    }
    const period =
      deposit.from !== null && deposit.to !== null
        ? { from: normalizeDateTime(deposit.from, 'from'), to: normalizeDateTime(deposit.to, 'to') }
        : null;
    requireSize(deposit, MAX_CSV_BYTES);
    const fileId = randomUUID();
    await db
      .insertInto('deposit_files')
      .values({
        id: fileId,
        application_id: id,
        data_name: entry.name,
        file_name: deposit.fileName,
        // Its bytes are checked against this size and the listed checksum as they are read, below.
        size: deposit.size,
        scope: JSON.stringify(deposit.scope),
        period_from: period ? new Date(`${period.from}Z`) : null,
        period_to: period ? new Date(`${period.to}Z`) : null,
        comment: deposit.comment,
        // The restorer deposits and publishes; who did it in the backed-up application stays as text.
        created_by: user.id,
        original_depositor: deposit.createdBy,
        created_at: deposit.createdAt,
        published: deposit.published,
        published_by: deposit.published ? user.id : null,
        original_publisher: deposit.published ? deposit.publishedBy : null,
        published_at: deposit.published && deposit.publishedAt ? new Date(deposit.publishedAt) : null,
      })
      .execute();
    // The file is checked as a deposit is, and a published one gives its rows again.
    const parts = fileParts(fileId);
    const rowCount = await ingestCsv(
      {
        db,
        checks: ctx.checks,
        applicationId: id,
        model,
        entry,
        fileName: deposit.fileName,
        deposit: { scope: deposit.scope, ...(period ?? {}) },
        batchRows,
      },
      parts.passOn(verified(archive, deposit, counted)),
      deposit.published ? (rows) => batch(() => insertVersionRows(db, id, entry.name, fileId, rows)) : null,
    ).catch((error: unknown) => Promise.reject(located(error, deposit.path, entry.name)));
    await parts.end();
    await db.updateTable('deposit_files').set({ row_count: rowCount }).where('id', '=', fileId).execute();
    if (deposit.published) published += rowCount;
    deposits += 1;
    versioned.add(entry.name);
    progress();
  }
  for (const dataName of versioned) await refreshCount(db, id, dataName);
  return { deposits, rows: published };
}
