import { sql, type Kysely, type Transaction } from 'kysely';
import type { ServerContext } from '../context.ts';
import { recordApplied } from '../db/appliedWork.ts';
import type { Schema } from '../db/schema.ts';
import { isDiskFull } from '../db/diskRoom.ts';
import { giveSpaceBack } from '../db/giveSpaceBack.ts';
import { asBulkWork, letRequestsThrough } from '../db/sessionOrder.ts';
import { EMBEDDED_BATCH_ROWS } from './entryWrite.ts';
import { writeFileParts, type FileParts } from './fileParts.ts';
import { removeRowsInSteps } from './versionRows.ts';

type Db = Kysely<Schema> | Transaction<Schema>;

/** Where a restore writes, and how each of its batches is written. */
export interface RestoreWrites {
  db: Db;
  /** Rows per batch the CSV engine hands over (its own when undefined). */
  batchRows?: number;
  /** Writes one batch of rows. */
  batch<T>(write: () => Promise<T>): Promise<T>;
  /** Where a stored file's parts are written. */
  parts(contentId: string): FileParts;
}

/**
 * Runs a restore's writes: on PostgreSQL in one transaction (it holds one of the pool's connections, and a failure
 * leaves nothing). The embedded database has one connection: a restore in one transaction held it, and every other
 * user, for as long as it lasted (minutes for a large backup). There, the application is written hidden
 * (`restoring_since`), batch after batch with other users' requests let through in between, and shown by its last
 * statement; a failure removes what was written, step by step too, and a crash leaves it for the next start.
 */
export async function inRestoreSteps<T>(
  ctx: ServerContext,
  applicationId: string,
  writeAll: (writes: RestoreWrites) => Promise<T>,
): Promise<T> {
  // A stop ends a restore at its next batch or file: it reads a file on disk, not the client's connection that the
  // stop closes, and would otherwise keep the stop waiting (PostgreSQL's pool ends once its connection is back).
  const going = () => ctx.stopped.throwIfAborted();
  if (ctx.config.databaseUrl)
    return ctx.db.transaction().execute((trx) =>
      writeAll({
        db: trx,
        batch: async (write) => {
          going();
          return write();
        },
        parts: (id) => (going(), writeFileParts(trx, id)),
      }),
    );
  // Files whose parts were written, a row naming them or not (a file refused at its checksum has none).
  const stored: string[] = [];
  try {
    return await writeAll({
      db: ctx.db,
      batchRows: EMBEDDED_BATCH_ROWS,
      async batch(write) {
        going();
        const begun = performance.now();
        const written = await asBulkWork(write);
        await letRequestsThrough(performance.now() - begun);
        return written;
      },
      parts(id) {
        going();
        stored.push(id);
        return writeFileParts(ctx.db, id, { asBulk: true });
      },
    });
  } catch (error) {
    await removeUntilDone(ctx, applicationId, stored);
    // A restore refused for a full disk committed batches before: their space is given back before the refusal is
    // told, as for an upload, so that what the client tries next finds it.
    if (isDiskFull(error)) {
      ctx.room.giveBack(() => giveSpaceBack(ctx.db, true));
      await ctx.room.givenBack();
    }
    throw error;
  }
}

/** Before the removal of a failed restore is tried again (a full disk, say); its name stays taken meanwhile. */
const REMOVE_RETRY_MS = 5_000;

/** Removes what a failed restore wrote, trying again later when that fails, until the instance stops. */
async function removeUntilDone(ctx: ServerContext, applicationId: string, stored: string[]): Promise<void> {
  try {
    await removeUnfinishedRestore(ctx.db, applicationId, stored);
  } catch (failure) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    if (ctx.stopped.aborted) {
      ctx.log(`what a failed restore wrote is left for the next start to remove: ${reason}`);
      return;
    }
    ctx.log(`removing what a failed restore wrote failed, tried again in ${REMOVE_RETRY_MS / 1000} s: ${reason}`);
    setTimeout(() => void removeUntilDone(ctx, applicationId, stored), REMOVE_RETRY_MS).unref();
  }
}

/** Shows a restored application: the restore's last statement, in its transaction or in one of its own. */
export async function finishRestore(db: Db, applicationId: string): Promise<void> {
  const show = async (trx: Transaction<Schema>) => {
    await trx.updateTable('applications').set({ restoring_since: null }).where('id', '=', applicationId).execute();
    await recordApplied(trx);
  };
  if (db.isTransaction) await show(db as Transaction<Schema>);
  else await db.transaction().execute(show);
}

/**
 * Files whose parts one statement removes: removing a failed restore of thousands of small files took a statement
 * each.
 */
const FILES_REMOVED_TOGETHER = 100;

/**
 * Removes a hidden application a restore left, its rows and stored files a step at a time: those its rows name and
 * those in `stored`. After a crash, parts no row names are removed by the start anyway (removeAbandonedParts).
 */
async function removeUnfinishedRestore(
  db: Kysely<Schema>,
  applicationId: string,
  stored: string[] = [],
): Promise<void> {
  // Shown already (its last statement's answer was lost, say), it is whole: nothing of it is removed.
  const shown = await db
    .selectFrom('applications')
    .select('id')
    .where('id', '=', applicationId)
    .where('restoring_since', 'is', null)
    .executeTakeFirst();
  if (shown) return;
  await removeRowsInSteps(db, sql`application_id = ${applicationId}`);
  const files = await sql<{ content_id: string }>`
    select id as content_id from deposit_files where application_id = ${applicationId}
    union all select content_id from additional_files where application_id = ${applicationId}`.execute(db);
  const contents = [...new Set([...stored, ...files.rows.map((file) => file.content_id)])];
  for (let at = 0; at < contents.length; at += FILES_REMOVED_TOGETHER) {
    const begun = performance.now();
    await db
      .deleteFrom('file_parts')
      .where('content_id', 'in', contents.slice(at, at + FILES_REMOVED_TOGETHER))
      .execute();
    await letRequestsThrough(performance.now() - begun);
  }
  await db
    .deleteFrom('applications')
    .where('id', '=', applicationId)
    .where('restoring_since', 'is not', null)
    .execute();
}

/** Removes what restores interrupted by a stop or a crash wrote (embedded database, at start); answers their names. */
export async function removeInterruptedRestores(db: Kysely<Schema>): Promise<string[]> {
  const left = await db
    .selectFrom('applications')
    .select(['id', 'name'])
    .where('restoring_since', 'is not', null)
    .execute();
  for (const { id } of left) await removeUnfinishedRestore(db, id);
  return left.map(({ name }) => name);
}
