import { sql, type Transaction } from 'kysely';
import { problemsOf } from '../../src/domain/applications/compatibility.ts';
import {
  dataLossSummary,
  itemsOf,
  type DataLossSummary,
  updateImpact,
  type StoredRowCounts,
  type UpdateImpact,
} from '../../src/domain/applications/updateImpact.ts';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import { stableJson } from '../../src/domain/configuration/serializeModel.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { ServerContext } from '../context.ts';
import type { Schema } from '../db/schema.ts';
import type { EventStream } from '../http/eventStream.ts';
import { refreshCount } from './dataRows.ts';
import { lockEntryForWrite } from './entryGate.ts';
import { excludeWrites, writesUnderWay } from './configurationHold.ts';
import { recheckStoredRows } from './storedRowsRecheck.ts';
import { applying } from '../db/appliedWork.ts';

/** What the caller of an update asks: only the report, and whether it accepts deleting stored data. */
export interface UpdateOptions {
  dryRun: boolean;
  confirmDataLoss: boolean;
  /**
   * The loss the caller confirmed, as a dry run summed it up (`dataLossSummary`): a confirmation given for that loss
   * does not cover another (rows loaded since, a change sent long after). Scripts may confirm without it.
   */
  confirmedLoss?: DataLossSummary;
  /** The version the update was prepared from: refused (APPLICATION_CHANGED_MEANWHILE) once it is not current. */
  fromVersion?: string;
}

/**
 * Refuses on the stream what may not be applied: a forbidden change (with its own code), or deleting stored data
 * that the caller did not confirm, or confirmed as another loss than this one (UPDATE_LOSES_DATA, naming what would
 * go). Answers whether it refused.
 */
export function refuseUnsafeUpdate(impact: UpdateImpact, options: UpdateOptions, events: EventStream): boolean {
  const forbidden = problemsOf(impact, ['forbidden']);
  for (const problem of forbidden)
    events.error('IncompatibleConfiguration', {
      code: problem.code,
      message: problem.code,
      params: { ...problem.params, path: problem.path ?? '' },
      path: problem.path,
    });
  const losesData = itemsOf(impact, 'dataLoss').length > 0;
  const loss = dataLossSummary(impact);
  const confirmed =
    options.confirmDataLoss &&
    (options.confirmedLoss === undefined || stableJson(options.confirmedLoss) === stableJson(loss));
  if (losesData && !confirmed)
    events.error('IncompatibleConfiguration', {
      code: 'UPDATE_LOSES_DATA',
      message: 'UPDATE_LOSES_DATA',
      params: { ...loss },
    });
  return forbidden.length > 0 || (losesData && !confirmed);
}

/**
 * Checks again, against the new model, the stored rows of the entries whose checking became stricter (in the
 * worker threads), and puts the outcome in the impact; progress goes from `progress.from` to `progress.to`.
 */
export async function recheckImpact(
  ctx: ServerContext,
  applicationId: string,
  next: ApplicationModel,
  impact: UpdateImpact,
  events: EventStream,
  progress: { from: number; to: number },
) {
  const entries = impact.entries.filter((entry) => entry.needsRecheck);
  for (const [index, entry] of entries.entries()) {
    events.info('application.ChangeConfiguration.configuration.recheckRows', { dataName: entry.dataName });
    const nextEntry = next.data.find((data) => data.name === entry.dataName)!;
    entry.revalidation = await recheckStoredRows(ctx, applicationId, next, nextEntry);
    events.progress(progress.from + ((progress.to - progress.from) * (index + 1)) / entries.length);
  }
}

/**
 * Runs the update's writes and the deletions its impact confirmed in one transaction: the values of removed
 * components go from every stored row (`values - key`), removed entries lose their rows and deposited versions.
 * Writes of the application's entries are kept out meanwhile (configurationHold.ts: on PostgreSQL, whatever the
 * instance), and the entries losing data held for writing in this process (the embedded database's large writes
 * commit batch by batch), so an upload under way cannot add values of a removed component after they were deleted.
 */
export async function inUpdateTransaction(
  ctx: ServerContext,
  applicationId: string,
  weighed: {
    previous: ApplicationModel;
    next: ApplicationModel;
    impact: UpdateImpact;
    recount: (trx: Transaction<Schema>, applicationId: string) => Promise<StoredRowCounts>;
  },
  write: (trx: Transaction<Schema>) => Promise<void>,
): Promise<void> {
  const { impact } = weighed;
  const lost = itemsOf(impact, 'dataLoss');
  const names = [...new Set(lost.map(({ entry }) => entry.dataName))].sort();
  const removedWithoutRows = impact.entries
    .filter((entry) => !names.includes(entry.dataName) && entry.items.some((item) => item.change === 'entryRemoved'))
    .map((entry) => entry.dataName);
  const locks = [];
  const waitMs = ctx.config.updateWaitMs;
  const waitUntil = Date.now() + waitMs;
  const deadline = AbortSignal.timeout(waitMs);
  try {
    for (const name of names)
      locks.push(
        await lockEntryForWrite(applicationId, name, deadline).catch((error: unknown) => {
          throw deadline.aborted ? writesUnderWay(waitMs) : error;
        }),
      );
    await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        // One wait in all: what the entries took is not waited again for the writes of other instances.
        await excludeWrites(trx, applicationId, Math.max(1, waitUntil - Date.now()), waitMs);
        // Rows loaded since the impact was weighed could make a confirmed deletion larger than what was confirmed.
        const now = updateImpact(weighed.previous, weighed.next, await weighed.recount(trx, applicationId));
        if (stableJson(now.entries.map((e) => e.items)) !== stableJson(impact.entries.map((e) => e.items)))
          throw new Refusal('APPLICATION_CHANGED_MEANWHILE');
        for (const name of names) {
          const items = lost.filter(({ entry }) => entry.dataName === name).map(({ item }) => item);
          if (items.some((item) => item.change === 'entryRemoved')) {
            await removeEntryData(trx, applicationId, name);
            continue;
          }
          const keys = items.map((item) => item.component!);
          await sql`update data_rows set values = values - ${keys}::text[]
          where application_id = ${applicationId} and data_name = ${name} and values ?| ${keys}::text[]`.execute(trx);
          await refreshCount(trx, applicationId, name);
        }
        // A removed entry weighed without rows may still hold deposited versions (never published): they go too.
        for (const name of removedWithoutRows) await removeEntryData(trx, applicationId, name);
        // Last, so that a failure of the model's own writes (another update won the race) also undoes the deletions.
        await write(trx);
      }),
    );
  } finally {
    for (const lock of locks) lock.release();
  }
}

/** Everything stored for an entry the configuration no longer has: its rows, its deposited versions, its count. */
async function removeEntryData(trx: Transaction<Schema>, applicationId: string, dataName: string) {
  await trx
    .deleteFrom('data_rows')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .execute();
  // Their jobs go with them (on delete cascade).
  await trx
    .deleteFrom('deposit_files')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .execute();
  await trx
    .deleteFrom('entry_counts')
    .where('application_id', '=', applicationId)
    .where('data_name', '=', dataName)
    .execute();
}
