import { applying } from '../db/appliedWork.ts';
import type { Kysely, Transaction } from 'kysely';
import type { CsvError } from '../../src/domain/csv/index.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import type { ServerContext } from '../context.ts';
import type { Schema } from '../db/schema.ts';
import { letRequestsThrough } from '../db/sessionOrder.ts';
import { JobFailure, type Job } from '../jobs/jobs.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { lockEntryAcrossInstances, refreshCount } from './dataRows.ts';
import { outsideRights } from './rowRights.ts';
import { fileOf, isoOf, sameScope, type DepositFile } from './versionFiles.ts';
import { lockEntryForWrite, type EntryLock } from './entryGate.ts';
import { EMBEDDED_BATCH_ROWS } from './entryWrite.ts';
import { CheckBudgetExceeded, CheckInterrupted, CsvRejected, ingestCsv } from './ingest.ts';
import type { EntryContext } from './references.ts';
import { storedFile } from './fileParts.ts';
import { insertVersionRows, removeRowsOfUnpublishedVersions, removeVersionRowsInSteps } from './versionRows.ts';
import { holdConfiguration } from './configurationHold.ts';
import { PointedKeys, pointedEntries } from './pointedRows.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** What publishing needs beyond the version: who asked (their rights, line by line) and how far it has gone. */
export interface PublicationRun {
  job: Job;
  progress: (value: number) => void;
  rights: Rights;
  /** Fault injection: fails the publication once this many rows are written. */
  failAfterRows?: number;
}

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

function overlaps(a: { from: Date | null; to: Date | null }, b: { from: Date | null; to: Date | null }) {
  if (!a.from || !a.to || !b.from || !b.to) return true;
  return a.from <= b.to && b.from <= a.to;
}

/**
 * The published versions a publication replaces: those of exactly the same scope and period. One of the same scope
 * whose period overlaps without matching refuses the publication; other periods of the scope stay published.
 */
async function versionsReplacedBy(db: Db, file: DepositFile, lock: boolean): Promise<string[]> {
  let query = db
    .selectFrom('deposit_files')
    .select(['id', 'file_name', 'scope', 'period_from', 'period_to'])
    .where('application_id', '=', file.application_id)
    .where('data_name', '=', file.data_name)
    .where('published', '=', true)
    .where('id', '!=', file.id);
  // Not `for update`: the key-share lock of a job queued meanwhile for one of them (its foreign key) need not wait.
  if (lock) query = query.forNoKeyUpdate();
  const sameDataset = (await query.execute()).filter((other) => sameScope(other.scope, file.scope));
  const samePeriod = (other: (typeof sameDataset)[number]) =>
    sameInstant(other.period_from, file.period_from) && sameInstant(other.period_to, file.period_to);
  const conflicting = sameDataset.filter(
    (other) =>
      !samePeriod(other) &&
      overlaps({ from: other.period_from, to: other.period_to }, { from: file.period_from, to: file.period_to }),
  );
  if (conflicting.length > 0) {
    throw new JobFailure('overlappingpublishedversion', {
      lineNumber: -1,
      fileOrUUID: file.id,
      files: conflicting.map((c) => c.file_name),
      // Whoever reads the job's state is told only the versions they may read (deposits.ts, jobErrorSeenBy).
      periods: conflicting.map((c) => ({
        from: c.period_from ? isoOf(c.period_from) : null,
        to: c.period_to ? isoOf(c.period_to) : null,
      })),
    });
  }
  return sameDataset.filter(samePeriod).map((other) => other.id);
}

/**
 * Checks the version's file again and writes its rows through `write`, line by line within the requester's
 * publication rights; a refusal or a failed check fails the job.
 */
async function writeVersionRows(
  ctx: ServerContext,
  db: Db,
  data: EntryContext,
  file: DepositFile,
  run: PublicationRun,
  write: (batch: CheckedBatch) => Promise<void>,
  batchRows?: number,
) {
  const refused: CsvError[] = [];
  let stored = 0;
  await ingestCsv(
    {
      db,
      checks: ctx.checks,
      applicationId: file.application_id,
      model: data.model,
      entry: data.entry,
      fileName: file.file_name,
      deposit: {
        scope: file.scope,
        ...(file.period_from ? { from: isoOf(file.period_from), to: isoOf(file.period_to!) } : {}),
      },
      places: true,
      batchRows,
      reader: run.rights,
    },
    storedFile(db, file.id, file.size),
    async (batch) => {
      outsideRights(run.rights, 'publication', data.entry.name, batch, refused);
      if (refused.length) return;
      await write(batch);
      stored += batch.count;
      if (run.failAfterRows !== undefined && stored >= run.failAfterRows)
        throw new JobFailure('INJECTED_FAILURE', { afterRows: stored });
      run.progress(Math.min(0.95, stored / Math.max(1, file.row_count)));
    },
  ).catch((error: unknown) => {
    if (error instanceof CsvRejected)
      throw new JobFailure('INVALID_CSV', {
        errors: error.report.errors.slice(0, 20),
        errorCount: error.report.errorCount,
      });
    if (error instanceof CheckBudgetExceeded || error instanceof CheckInterrupted)
      throw new JobFailure(error.code, error.params);
    throw error;
  });
  if (refused.length)
    throw new JobFailure('norightforpublish', {
      lineNumber: -1,
      errors: refused.slice(0, 20),
      errorCount: refused.length,
    });
}

const markPublished = (db: Db, fileId: string, by: string | null) =>
  db
    .updateTable('deposit_files')
    .set({ published: true, published_by: by, published_at: new Date() })
    .where('id', '=', fileId)
    .execute();

const markUnpublished = (db: Db, fileIds: string[]) =>
  fileIds.length === 0
    ? Promise.resolve()
    : db
        .updateTable('deposit_files')
        .set({ published: false, published_by: null, published_at: null })
        .where('id', 'in', fileIds)
        .execute();

/**
 * Publishes a version, replacing the published version of exactly the same dataset: all of it or nothing.
 *
 * On PostgreSQL, in one transaction. On the embedded database, whose one session a transaction holds from begin
 * to commit (a large version held every user of every application while it was published), the rows are written
 * in short transactions while the entry's readers wait (entryGate.ts); one short transaction then marks the
 * version published and the one it replaces unpublished, and the replaced rows go in steps after it. A failure
 * before that transaction removes what was written, before readers come back; a crash anywhere is put right at
 * the next start, since a version's rows exist only while it is published (versionRows.ts).
 */
export async function publishJob(ctx: ServerContext, data: EntryContext, run: PublicationRun) {
  const file = await fileOf(ctx, data, run.job.file_id!);
  const by = run.job.requested_by;
  // As every write (entryWrite.ts): the rows the version points to must still be there when it is published, and
  // the configuration the version is checked against still the application's (race audit M3–M5).
  const pointed = new PointedKeys(file.application_id, pointedEntries(data.model, data.entry));
  const configuration = (db: Db) => holdConfiguration(db, file.application_id, data.application.model_version);
  if (ctx.config.databaseUrl) {
    await ctx.db.transaction().execute(async (trx) => {
      // One publication of the entry at a time, on every instance: the next one sees what this one published (two
      // versions of one dataset published at once were both kept).
      await lockEntryAcrossInstances(trx, file.application_id, file.data_name);
      if (await publishedAlready(trx, file.id)) return;
      // In the order every write takes them (entry, pointed entries, configuration), before any row is touched: an
      // update waiting for the configuration then holds nothing the publication needs.
      await pointed.hold(trx);
      await configuration(trx);
      const replaced = await versionsReplacedBy(trx, file, true);
      if (replaced.length > 0) await trx.deleteFrom('data_rows').where('file_id', 'in', replaced).execute();
      await markUnpublished(trx, replaced);
      await writeVersionRows(ctx, trx, data, file, run, async (batch) => {
        await pointed.note(trx, batch);
        await insertVersionRows(trx, file.application_id, file.data_name, file.id, batch);
      });
      await pointed.refuseMissing(trx);
      await markPublished(trx, file.id, by);
      await refreshCount(trx, file.application_id, file.data_name);
    });
    return;
  }
  await inEmbeddedSteps(ctx, file, async () => {
    if (await publishedAlready(ctx.db, file.id)) return;
    const replaced = await versionsReplacedBy(ctx.db, file, false);
    const write = async (batch: CheckedBatch) => {
      const begun = performance.now();
      await pointed.note(ctx.db, batch);
      await insertVersionRows(ctx.db, file.application_id, file.data_name, file.id, batch);
      await letRequestsThrough(performance.now() - begun);
    };
    await writeVersionRows(ctx, ctx.db, data, file, run, write, EMBEDDED_BATCH_ROWS);
    await ctx.db.transaction().execute(async (trx) => {
      await configuration(trx);
      await pointed.refuseMissing(trx);
      await markUnpublished(trx, replaced);
      await markPublished(trx, file.id, by);
    });
    for (const id of replaced) await removeVersionRowsInSteps(ctx.db, id);
  });
}

/**
 * Whether the version is published, read once the entry is held: a publication run again (a job taken up again
 * after a crash that followed its commit) then has nothing to do. A version's rows exist whole while it is published
 * and only then, so writing them again would double them.
 */
async function publishedAlready(db: Db, fileId: string) {
  const row = await db.selectFrom('deposit_files').select('published').where('id', '=', fileId).executeTakeFirst();
  return row?.published === true;
}

/** Unpublishes a version: its rows go, the version stays. */
export async function unpublishJob(ctx: ServerContext, data: EntryContext, job: Job) {
  const file = await fileOf(ctx, data, job.file_id!);
  await removeVersion(ctx, file, false);
}

/**
 * Takes a version's rows out of the entry, and the version itself when `andFile`. On the embedded database the
 * version is marked unpublished first, in a short transaction, and its rows then go in steps: a crash in between
 * leaves the version unpublished (and kept, when it was being deleted), its rows removed at the next start.
 * `guard` runs first: on PostgreSQL in the transaction that removes, so that what it checks stays true until then;
 * on the embedded database, in a transaction of its own (deposits.ts keeps what it checks true from there).
 */
export async function removeVersion(
  ctx: ServerContext,
  file: DepositFile,
  andFile: boolean,
  guard: (trx: Transaction<Schema>) => Promise<void> = async () => undefined,
) {
  const finish = async (db: Db) => {
    if (andFile) await db.deleteFrom('deposit_files').where('id', '=', file.id).execute();
    else await markUnpublished(db, [file.id]);
  };
  if (ctx.config.databaseUrl) {
    await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        // The entry first, as a publication takes it: one that replaces this version locks it after the entry, and
        // this deleting its rows first and waiting for the version after was the other order (a deadlock).
        await lockEntryAcrossInstances(trx, file.application_id, file.data_name);
        await guard(trx);
        await trx.deleteFrom('data_rows').where('file_id', '=', file.id).execute();
        await finish(trx);
        await refreshCount(trx, file.application_id, file.data_name);
      }),
    );
    return;
  }
  await ctx.db.transaction().execute(guard);
  await inEmbeddedSteps(ctx, file, async () => {
    await markUnpublished(ctx.db, [file.id]);
    await removeVersionRowsInSteps(ctx.db, file.id);
    await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        await finish(trx);
      }),
    );
  });
}

/** Before putting an entry right is tried again (the disk still full, say); the entry's readers wait meanwhile. */
const REPAIR_RETRY_MS = 5_000;

/**
 * Runs a change of an entry's versions on the embedded database with the entry's readers kept out (they would
 * see part of it), then counts the entry's rows again before letting them in. A change that fails is put right
 * (the rows of versions not published removed) before they come in, never after.
 */
async function inEmbeddedSteps(ctx: ServerContext, file: DepositFile, change: () => Promise<void>) {
  const lock = await lockEntryForWrite(file.application_id, file.data_name);
  try {
    await lock.closeToReaders();
    await lock.within(change);
    await refreshCount(ctx.db, file.application_id, file.data_name);
    lock.release();
  } catch (error) {
    void putRightThenRelease(ctx, file, lock);
    throw error;
  }
}

async function putRightThenRelease(ctx: ServerContext, file: DepositFile, lock: EntryLock) {
  try {
    await removeRowsOfUnpublishedVersions(ctx.db, { applicationId: file.application_id, dataName: file.data_name });
    lock.release();
  } catch (error) {
    // The next start puts it right (removeRowsOfUnpublishedVersions), before serving.
    if (ctx.stopped.aborted) {
      ctx.log(`putting ${file.data_name} right after a failed publication change is left for the next start`);
      lock.release();
      return;
    }
    ctx.log(
      `putting ${file.data_name} right after a failed publication change failed, tried again in ${REPAIR_RETRY_MS / 1000} s: ${error instanceof Error ? error.message : String(error)}`,
    );
    setTimeout(() => void putRightThenRelease(ctx, file, lock), REPAIR_RETRY_MS).unref();
  }
}
