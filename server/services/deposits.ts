import { applying } from '../db/appliedWork.ts';
import { randomUUID } from 'node:crypto';
import type { DataInserted } from '../../src/contract/data.ts';
import {
  DepositParamsSchema,
  RepositoryIdSchema,
  type DepositParams,
  type JobError,
  type RepositoryId,
  type Version,
  type VersionDeposited,
} from '../../src/contract/deposits.ts';
import { checkJson, readJsonParameter } from '../../src/contract/jsonParameter.ts';
import { sql, type Transaction } from 'kysely';
import type { CsvError } from '../../src/domain/csv/index.ts';
import { readPeriodBound } from '../../src/domain/deposits/periodBound.ts';
import { findNamedScopeRow, findScopeRow, scopeRowLookup } from '../../src/domain/deposits/scopeValues.ts';
import type { ServerContext } from '../context.ts';
import type { Schema, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { StreamedUpload } from '../http/readUpload.ts';
import type { SpooledUpload } from './uploadSpool.ts';
import { enqueueJob } from '../jobs/jobs.ts';
import { writeEntryRows, type BatchGuard } from './entryWrite.ts';
import type { CheckedBatch } from '../workers/csvCheckApi.ts';
import { bothWritten, countAfterWrite, NOTHING_WRITTEN } from './dataRows.ts';
import { followMoves, mayMoveRows, MovedRows, refuseStalePointers } from './movedRows.ts';
import { pointedEntries, PointedKeys } from './pointedRows.ts';
import { removeVersion } from './publication.ts';
import { outsideRights, replacingOutsideRights } from './rowRights.ts';
import { datasetOfFile, fileOf, isoOf } from './versionFiles.ts';
import { requireOpenable } from './versionAccess.ts';
import { discardRefusedParts, writeFileParts } from './fileParts.ts';
import { CsvRejected, MAX_REPORTED_ERRORS, ingestCsv } from './ingest.ts';
import { refusal } from './dataAccess.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { mayOpenVersion } from '../../src/domain/rights/versions.ts';
import { ingestTargetOf, readableRowCount, type EntryContext } from './references.ts';
import { holdConfiguration } from './configurationHold.ts';

export const MAX_DEPOSIT_COMMENT = 200;

function badParams(reading: { reason: string; path?: string }): Refusal {
  return new Refusal('BAD_DEPOSIT_PARAMS', {
    reason: reading.reason,
    ...(reading.path !== undefined ? { path: reading.path } : {}),
  });
}

/** The `params` field of a deposit form, or its JSON body when it publishes: checked against its schema. */
export function readDepositParams(source: string | undefined | { json: unknown }): DepositParams {
  const reading =
    typeof source === 'object'
      ? checkJson(DepositParamsSchema, source.json ?? {})
      : readJsonParameter(DepositParamsSchema, source);
  if (!reading.ok) throw badParams(reading);
  return reading.value ?? {};
}

/** The `repositoryId` of the version list. */
export function readRepositoryId(text: string | undefined): RepositoryId {
  const reading = readJsonParameter(RepositoryIdSchema, text);
  if (!reading.ok) throw badParams(reading);
  return reading.value ?? {};
}

/**
 * The scope a version list is narrowed to: one hierarchical key per scope component. The original's
 * `requiredAuthorizations` holds a list per component; the list of one dataset holds one key each, and every key but
 * the first was dropped without a word: several are refused instead.
 */
export function repositoryScope(filter: RepositoryId): Record<string, string> {
  const scope: Record<string, string> = {};
  for (const [component, value] of Object.entries(filter.requiredAuthorizations ?? {})) {
    const keys = Array.isArray(value) ? value : [value];
    if (keys.length > 1)
      throw new Refusal('UNSUPPORTED_PARAMETER', {
        parameter: `repositoryId.requiredAuthorizations.${component} (several values)`,
      });
    if (keys[0] !== undefined) scope[component] = keys[0];
  }
  return scope;
}

/** "1984-01-01 00:00:00", "1984-01-01T00:00:00" or "1984-01-01" → the ISO local date-time, or a refusal. */
export function normalizeDateTime(text: string, field: string): string {
  const bound = readPeriodBound(text);
  if (bound === null) throw new Refusal('BAD_DEPOSIT_PERIOD', { field, value: text });
  return bound;
}

export interface Dataset {
  /** Reference-scope component → hierarchical key of the chosen row. */
  scope: Record<string, string>;
  from: string | null;
  to: string | null;
}

/**
 * The row of a scope reference a deposit names. Only the rows its text may name are read, by their keys (indexed):
 * reading every row to find one held the request thread and its memory as long as the reference is large, for a
 * refused deposit too. A path whose last label is found nowhere else is matched on the natural keys that label may
 * be with its leading empty parts, by index, two rows at most.
 */
async function scopeRowOf(ctx: ServerContext, data: EntryContext, reference: string, text: string) {
  const applicationId = data.application.id;
  const lookup = scopeRowLookup(
    text,
    data.model.data.find((entry) => entry.name === reference)?.naturalKey.length ?? 1,
  );
  const rows = () =>
    ctx.db
      .selectFrom('data_rows')
      .select(['natural_key as naturalKey', 'hierarchical_key as hierarchicalKey'])
      .where('application_id', '=', applicationId)
      .where('data_name', '=', reference)
      .where('file_id', 'is', null);
  const named = await rows()
    .where((eb) =>
      eb.or([eb('hierarchical_key', '=', lookup.hierarchicalKey), eb('natural_key', 'in', lookup.naturalKeys)]),
    )
    .execute();
  const found = findNamedScopeRow(named, text);
  if (found || lookup.pathEnds === null) return found;
  // Two are enough to tell that the last label names more than one row.
  const ending = await rows().where('natural_key', 'in', lookup.pathEnds).limit(2).execute();
  return findScopeRow(ending, text);
}

/** The scope and period of a deposit, checked against the configuration and the stored scope references. */
export async function resolveDataset(ctx: ServerContext, data: EntryContext, params: DepositParams): Promise<Dataset> {
  const { submission } = data.entry;
  const given = params.binaryfiledataset?.requiredAuthorizations ?? {};
  const scope: Record<string, string> = {};
  for (const reference of submission.referenceScopes) {
    const raw = given[reference.component] ?? given[reference.reference];
    const text = Array.isArray(raw) ? raw[0] : raw;
    if (text === undefined || text === '') throw new Refusal('MISSING_SCOPE', { component: reference.component });
    const row = await scopeRowOf(ctx, data, reference.reference, text);
    if (!row) throw new Refusal('UNKNOWN_SCOPE_VALUE', { component: reference.component, value: text });
    scope[reference.component] = row.hierarchicalKey;
  }
  const { from, to } = params.binaryfiledataset ?? {};
  if (!submission.timeScope) return { scope, from: null, to: null };
  if (!from || !to) throw new Refusal('MISSING_PERIOD');
  const period = { from: normalizeDateTime(from, 'from'), to: normalizeDateTime(to, 'to') };
  if (period.from > period.to) throw new Refusal('BAD_DEPOSIT_PERIOD', { field: 'to', value: to });
  return { scope, ...period };
}

const byLine = (a: CsvError, b: CsvError) => a.lineNumber - b.lineNumber;

/** A file of a data type without versioning: its rows are inserted or updated by natural key, each within the caller's rights. */
export async function insertData(
  ctx: ServerContext,
  data: EntryContext,
  upload: SpooledUpload,
  rights: Rights,
): Promise<DataInserted> {
  const { application, entry } = data;
  // A data type's rows may lie within others and be pointed to, as a reference's: their moves are watched alike.
  const moved = mayMoveRows(entry) ? new MovedRows(application.id, entry.name) : undefined;
  const inserted = await writeEntryRows(
    ctx,
    application.id,
    entry.name,
    async (write) => {
      const refused: CsvError[] = [];
      // Lines refused past the first ones by line, forgotten but counted: a file of millions of lines outside the
      // depositor's rights kept every refusal in memory, for an answer that lists a thousand.
      let forgotten = 0;
      const keepFirstRefused = () => {
        if (refused.length <= 2 * MAX_REPORTED_ERRORS) return;
        refused.sort(byLine);
        forgotten += refused.length - MAX_REPORTED_ERRORS;
        refused.length = MAX_REPORTED_ERRORS;
      };
      let written = NOTHING_WRITTEN;
      // A depositor of part of the entry may not replace a row of another part (a natural key without every scope
      // component names one row wherever it lies): checked by the write, against the rows as it replaces them.
      const guard = (batch: CheckedBatch): BatchGuard | undefined =>
        rights.all('depot', entry.name)
          ? undefined
          : async (db) => {
              const before = refused.length;
              await replacingOutsideRights(db, application.id, entry, rights, batch, refused);
              const clear = refused.length === before;
              keepFirstRefused();
              return clear;
            };
      let lineCount = 0;
      const rejected = () =>
        new CsvRejected({
          rowCount: lineCount,
          errorCount: refused.length + forgotten,
          errors: [...refused].sort(byLine).slice(0, MAX_REPORTED_ERRORS),
          truncated: refused.length + forgotten > MAX_REPORTED_ERRORS,
        });
      lineCount = await ingestCsv(
        ingestTargetOf(ctx, data, upload.fileName, { places: true, batchRows: write.batchRows, reader: rights }),
        upload.stream,
        async (batch, failed) => {
          outsideRights(rights, 'depot', entry.name, batch, refused);
          keepFirstRefused();
          if (refused.length === 0) written = bothWritten(written, await write.upsert(batch, failed, guard(batch)));
        },
        () => upload.complete(),
      );
      if (refused.length) throw rejected();
      const { totalRows, followed, stored } = await write.finish(async (db, kept) => {
        const stored = bothWritten(written, kept);
        // Batches kept for one last transaction are checked in it, just before this.
        if (refused.length) throw rejected();
        await refuseStalePointers(db, application.id, moved, (name) => rights.all('extraction', name));
        const followed = await followMoves(db, application.id, moved);
        return { totalRows: await countAfterWrite(db, application.id, entry.name, stored.written), followed, stored };
      });
      const { added, replaced } = stored;
      return { dataType: entry.name, lineCount, added, replaced, totalRows, ...(followed ? { moved: followed } : {}) };
    },
    {
      arrival: upload.arrival,
      moved,
      pointed: new PointedKeys(application.id, pointedEntries(data.model, entry)),
      modelVersion: application.model_version,
    },
  );
  // The entry's count is for those who read it whole; a depositor of part of it is told the rows they may read.
  if (rights.all('extraction', entry.name)) return inserted;
  return { ...inserted, totalRows: await readableRowCount(ctx, data, rights.rowFilter('extraction', entry.name)) };
}

/**
 * A new version of a dataset: the file is checked with its scope and period (rows outside them are refused) and
 * kept whole in the database, in parts written as it arrives. It contributes rows only once published: with
 * `topublish`, its publication job is queued in the transaction that keeps the version (`jobId`).
 */
export async function depositVersion(
  ctx: ServerContext,
  user: UserRow,
  data: EntryContext,
  upload: StreamedUpload,
  params: DepositParams,
  rights: Rights,
): Promise<{ deposited: VersionDeposited; jobId?: string }> {
  const dataset = await resolveDataset(ctx, data, params);
  const deposit = { scopes: dataset.scope, from: dataset.from, to: dataset.to };
  if (!rights.covers('depot', data.entry.name, deposit)) throw refusal('depot', data);
  if (params.topublish && !rights.covers('publication', data.entry.name, deposit)) throw refusal('publication', data);
  const comment = params.binaryfiledataset?.comment ?? '';
  if (comment.length > MAX_DEPOSIT_COMMENT) throw new Refusal('COMMENT_TOO_LONG', { max: MAX_DEPOSIT_COMMENT });
  const id = randomUUID();
  const parts = writeFileParts(ctx.db, id, { asBulk: true });
  try {
    const rowCount = await ingestCsv(
      ingestTargetOf(ctx, data, upload.fileName, {
        deposit: { scope: dataset.scope, ...(dataset.from ? { from: dataset.from, to: dataset.to! } : {}) },
        reader: rights,
      }),
      parts.passOn(upload.stream),
      null,
      () => upload.complete(),
    );
    const size = await parts.end();
    const jobId = await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        // A version of a data type an update removed meanwhile would stay behind it (race review S4).
        await holdConfiguration(trx, data.application.id, data.application.model_version);
        await trx
          .insertInto('deposit_files')
          .values({
            id,
            application_id: data.application.id,
            data_name: data.entry.name,
            file_name: upload.fileName,
            size,
            scope: JSON.stringify(dataset.scope),
            period_from: dataset.from ? new Date(`${dataset.from}Z`) : null,
            period_to: dataset.to ? new Date(`${dataset.to}Z`) : null,
            comment,
            created_by: user.id,
            row_count: rowCount,
          })
          .execute();
        if (!params.topublish) return undefined;
        return enqueueJob(trx, {
          kind: 'publish',
          application_id: data.application.id,
          file_id: id,
          requested_by: user.id,
        });
      }),
    );
    return { deposited: { fileId: id, rowCount }, jobId };
  } catch (error) {
    await discardRefusedParts(ctx, parts, error);
    throw error;
  }
}

/**
 * Holds a version, until the transaction ends, against the other requests that would start work on it (publish,
 * unpublish, delete), on every instance: each sees what the one before it did. Checked and then acted on in
 * separate statements, two clicks on Publish queued two publications, and a version deleted between the check and
 * the queueing made the publication request fail on the job's foreign key.
 */
const holdVersion = (trx: Transaction<Schema>, fileId: string) =>
  sql`select pg_advisory_xact_lock(hashtextextended(${`version/${fileId}`}, 0))`.execute(trx);

/**
 * The versions whose deletion is under way in this process. On the embedded database a version's rows go in steps
 * after its check (publication.ts, removeVersion): a publication requested meanwhile would queue a job that the
 * deletion then takes with the version.
 */
const versionsBeingDeleted = new Set<string>();

/** What a publication request answers: the job queued, or the state the version already has. */
export type PublicationRequested = { jobId: string } | { published: boolean };

/**
 * Publication and unpublication run as jobs: a big file takes time, and a failure must leave the previous state.
 * A version already in the state asked for is answered with it, and no job is queued: publishing it again would
 * write its rows a second time (two clicks, a script run again, a change sent late by another device).
 */
export async function requestPublication(
  ctx: ServerContext,
  user: UserRow,
  data: EntryContext,
  fileId: string,
  publish: boolean,
  rights: Rights,
): Promise<PublicationRequested> {
  const file = await fileOf(ctx, data, fileId);
  requireOpenable(rights, data, file);
  if (!rights.covers('publication', data.entry.name, datasetOfFile(file))) throw refusal('publication', data);
  return ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      await holdVersion(trx, fileId);
      const current = await trx
        .selectFrom('deposit_files')
        .select('published')
        .where('id', '=', fileId)
        .executeTakeFirst();
      if (!current) throw new Refusal('NO_SUCH_FILE', { fileId });
      await refuseWorkInProgress(trx, fileId);
      if (versionsBeingDeleted.has(fileId)) throw new Refusal('NO_SUCH_FILE', { fileId });
      if (current.published === publish) return { published: publish };
      const jobId = await enqueueJob(trx, {
        kind: publish ? 'publish' : 'unpublish',
        application_id: data.application.id,
        file_id: fileId,
        requested_by: user.id,
      });
      return { jobId };
    }),
  );
}

async function refuseWorkInProgress(trx: Transaction<Schema>, fileId: string) {
  const running = await trx
    .selectFrom('jobs')
    .select('id')
    .where('file_id', '=', fileId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (running) throw new Refusal('WORKFLOW_ALREADY_IN_PROGRESS', { fileId, jobId: running.id });
}

/** Deletes a version; a published one takes its rows with it (deleting it then needs the publication right too). */
export async function deleteVersion(ctx: ServerContext, data: EntryContext, fileId: string, rights: Rights) {
  const file = await fileOf(ctx, data, fileId);
  const dataset = datasetOfFile(file);
  if (!rights.covers('delete', data.entry.name, dataset)) throw refusal('delete', data);
  if (file.published && !rights.covers('publication', data.entry.name, dataset)) throw refusal('publication', data);
  versionsBeingDeleted.add(fileId);
  let wasPublished = file.published;
  try {
    await removeVersion(ctx, file, true, async (trx) => {
      await holdVersion(trx, fileId);
      // Locked as well: a publication replacing it (publication.ts) holds it, and its rows, until it commits.
      const current = await trx
        .selectFrom('deposit_files')
        .select('published')
        .where('id', '=', fileId)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw new Refusal('NO_SUCH_FILE', { fileId });
      await refuseWorkInProgress(trx, fileId);
      // A publication that ended while the deletion waited for the entry made it a published version: deleting it
      // now takes published rows, which needs the publication right.
      wasPublished = current.published;
      if (wasPublished && !rights.covers('publication', data.entry.name, dataset)) throw refusal('publication', data);
    });
  } finally {
    versionsBeingDeleted.delete(fileId);
  }
  return { id: fileId, wasPublished };
}

/** The versions of a data type, optionally of one dataset (scope and period) or the one version `id`, newest first. */
export async function listVersions(
  ctx: ServerContext,
  data: EntryContext,
  filter: { scope?: Record<string, string>; from?: string; to?: string; id?: string },
  viewer: Rights,
): Promise<Version[]> {
  // One snapshot for the versions and their jobs: a job seen done always comes with the work it did (the work is
  // committed before its job is marked done; two separate reads could fall on either side of both).
  const { files, jobs } = await ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      let query = trx
        .selectFrom('deposit_files as f')
        .leftJoin('users as c', 'c.id', 'f.created_by')
        .leftJoin('users as p', 'p.id', 'f.published_by')
        .select([
          'f.id',
          'f.file_name',
          'f.size',
          'f.comment',
          'f.row_count',
          'f.scope',
          'f.period_from',
          'f.period_to',
          'f.created_at',
          'f.created_by',
          'c.login as created_login',
          'f.published',
          'f.published_at',
          'f.published_by',
          'p.login as published_login',
          'f.original_depositor',
          'f.original_publisher',
        ])
        .where('f.application_id', '=', data.application.id)
        .where('f.data_name', '=', data.entry.name)
        .orderBy('f.created_at', 'desc')
        // Versions deposited at the same instant (a restore keeps the backed-up dates) in one order, read after read.
        .orderBy('f.id', 'desc');
      if (filter.scope && Object.keys(filter.scope).length > 0)
        query = query.where(sql<boolean>`f.scope @> ${JSON.stringify(filter.scope)}::jsonb`);
      if (filter.from)
        query = query.where('f.period_from', '=', new Date(`${normalizeDateTime(filter.from, 'from')}Z`));
      if (filter.to) query = query.where('f.period_to', '=', new Date(`${normalizeDateTime(filter.to, 'to')}Z`));
      if (filter.id) query = query.where('f.id', '=', filter.id);
      const files = await query.execute();
      // The newest job of each version only: a version published and unpublished many times keeps every job.
      const jobs = files.length
        ? await trx
            .selectFrom('jobs')
            .distinctOn('file_id')
            .select(['id', 'kind', 'file_id', 'status', 'progress', 'error', 'created_at'])
            .where(
              'file_id',
              'in',
              files.map((f) => f.id),
            )
            .orderBy('file_id')
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .execute()
        : [];
      return { files, jobs };
    });
  const jobOf = new Map(jobs.map((job) => [job.file_id, job]));
  return files.map((f) => {
    const job = jobOf.get(f.id);
    return {
      id: f.id,
      name: f.file_name,
      size: Number(f.size),
      comment: f.comment,
      rowCount: f.row_count,
      scope: f.scope,
      from: f.period_from ? isoOf(f.period_from) : null,
      to: f.period_to ? isoOf(f.period_to) : null,
      createdAt: f.created_at.toISOString(),
      createdBy: { id: f.created_by, login: f.created_login },
      published: f.published,
      publishedAt: f.published_at ? f.published_at.toISOString() : null,
      publishedBy: { id: f.published_by, login: f.published_login },
      originalDepositor: f.original_depositor,
      originalPublisher: f.original_publisher,
      job: job
        ? {
            id: job.id,
            kind: job.kind,
            status: job.status,
            progress: job.progress,
            error: jobErrorSeenBy(job.error, viewer, data.entry.name, f.scope),
          }
        : null,
    };
  });
}

/**
 * A failed publication's error as `viewer` may read it: the published versions it overlapped are named only when the
 * viewer may open them (they share the version's scope; their periods were kept with the error), the others counted.
 * An error kept without those periods names versions to whoever reads the data type whole only.
 */
function jobErrorSeenBy(
  error: JobError | null,
  viewer: Rights,
  dataName: string,
  scopes: Record<string, string>,
): JobError | null {
  if (error?.code !== 'overlappingpublishedversion') return error;
  const { files, periods, ...rest } = error.params as {
    files?: unknown;
    periods?: unknown;
    [key: string]: unknown;
  };
  const names = Array.isArray(files) ? files.map(String) : [];
  const kept = Array.isArray(periods) ? (periods as Array<{ from: string | null; to: string | null }>) : [];
  const whole = viewer.all('extraction', dataName);
  const named = names.filter(
    (_, index) =>
      whole ||
      (kept[index] !== undefined && mayOpenVersion(viewer, dataName, { scopes, ...kept[index], published: true })),
  );
  if (named.length === names.length) return { code: error.code, params: { ...rest, files: names } };
  return {
    code: 'overlappingunreadablepublishedversion',
    params: { ...rest, files: named, named: named.length, count: names.length - named.length },
  };
}
