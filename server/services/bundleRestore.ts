import { additionalFileNameKey } from '../../src/domain/additionalFiles/fileName.ts';
import { createHash, randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { summarizeApplication } from '../../src/domain/applications/summary.ts';
import {
  isVersioned,
  MANIFEST_PATH,
  readManifest,
  type BundleAdditionalFile,
  type BundleDeposit,
  type BundleFile,
  type BundleManifest,
} from '../../src/domain/bundle/manifest.ts';
import {
  configurationMessageKey,
  serializeModel,
  validateConfiguration,
  type ApplicationModel,
} from '../../src/domain/configuration/index.ts';
import { isValidAdditionalFileName } from '../../src/domain/additionalFiles/fileName.ts';
import { CHARTER_TYPES, isCharterType, looksLikePdf } from '../../src/domain/applications/charter.ts';
import type { ServerContext } from '../context.ts';
import type { AdditionalFilesTable, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { databaseFailure } from '../http/databaseErrors.ts';
import type { EventStream } from '../http/eventStream.ts';
import type { StreamedUpload } from '../http/readUpload.ts';
import { MAX_CONFIGURATION_BYTES } from './applications.ts';
import { refreshCount, upsertRows } from './dataRows.ts';
import { normalizeDateTime } from './deposits.ts';
import { insertVersionRows } from './versionRows.ts';
import { CsvRejected, ingestCsv } from './ingest.ts';
import { MAX_CSV_BYTES } from './references.ts';
import { ZipArchive, ZipRefused } from './zipArchive.ts';
import { finishRestore, inRestoreSteps } from './restoreInSteps.ts';
import { SMALL_FILE_BYTES, SMALL_FILES_STATEMENT_BYTES } from './fileParts.ts';
import { spoolUpload } from './uploadSpool.ts';

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** Additional files restored one by one are held whole, like when they are uploaded. */
const MAX_ADDITIONAL_FILE_BYTES = 200 * 1024 * 1024;
const MAX_ENTRIES = 100_000;

/** A bundle that cannot be restored as it is: 400 INVALID_BUNDLE before the work starts, an error event after. */
export class BundleRefused extends Refusal {
  constructor(reason: string, params: Record<string, unknown> = {}) {
    super('INVALID_BUNDLE', { reason, ...params });
  }
}

const refusedZip = (error: unknown) =>
  error instanceof ZipRefused ? new BundleRefused(error.reason, error.params) : error;

/** An uploaded backup, kept in a temporary file while it is read (it may be far larger than memory). */
export interface SpooledBundle {
  archive: ZipArchive;
  manifest: BundleManifest;
  remove(): Promise<void>;
}

/**
 * Spools the upload (uploadSpool.ts, as CSV uploads are: disk room asked for as it arrives), then checks it is a
 * bundle: a zip within the limits whose manifest lists files that are all there, its charter a PDF. Nothing is
 * written to the database; every refusal is a 400 INVALID_BUNDLE, but a charter that is not a PDF: 415
 * CHARTER_NOT_PDF, as when it is uploaded.
 */
export async function spoolBundle(ctx: ServerContext, upload: StreamedUpload): Promise<SpooledBundle> {
  const spooled = await spoolUpload(ctx, upload);
  const remove = () => spooled.remove();
  try {
    await spooled.arrival();
    const size = spooled.size();
    if (size === 0) throw new Refusal('EMPTY_FILE', { fileName: upload.fileName });
    const archive = await ZipArchive.open(spooled.path, size, {
      maxEntries: MAX_ENTRIES,
      maxInflatedBytes: ctx.config.bundleMaxInflatedBytes,
    }).catch((error) => {
      throw refusedZip(error);
    });
    if (!archive.entries.has(MANIFEST_PATH)) throw new BundleRefused('notABundle');
    const text = (
      await archive.readAll(MANIFEST_PATH, MAX_MANIFEST_BYTES).catch((error) => Promise.reject(refusedZip(error)))
    ).toString('utf8');
    const read = readManifest(text);
    if (!read.ok) throw new BundleRefused(read.problem.reason, read.problem.path ? { part: read.problem.path } : {});
    const manifest = read.manifest;
    for (const listed of listedFiles(manifest)) {
      const entry = archive.entries.get(listed.path);
      if (!entry) throw new BundleRefused('missingEntry', { entry: listed.path });
      if (entry.size !== listed.size) throw new BundleRefused('checksumMismatch', { entry: listed.path });
    }
    for (const charter of manifest.additionalFiles.filter((file) => isCharterType(file.fileType))) {
      const head = await headOf(archive, charter.path, 5).catch((error) => Promise.reject(refusedZip(error)));
      if (!looksLikePdf(head))
        throw new Refusal('CHARTER_NOT_PDF', { fileName: charter.fileName, entry: charter.path });
    }
    return { archive, manifest, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The first bytes of an entry (what a magic number needs), without inflating the rest. */
async function headOf(archive: ZipArchive, path: string, count: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of archive.read(path)) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size >= count) break;
  }
  return Buffer.concat(chunks).subarray(0, count);
}

/** The files a restore reads. */
function listedFiles(manifest: BundleManifest): BundleFile[] {
  return [
    manifest.configuration,
    ...manifest.data.filter((data) => data.restored).flatMap((data) => data.files),
    ...manifest.deposits,
    ...manifest.additionalFiles,
  ];
}

/** Checks what the manifest says against the configuration, before anything is written. */
function checkAgainstModel(manifest: BundleManifest, model: ApplicationModel) {
  const entryOf = (dataName: string) => model.data.find((entry) => entry.name === dataName);
  for (const data of manifest.data) {
    const entry = entryOf(data.dataName);
    if (!entry || entry.kind !== data.kind || data.restored === isVersioned(entry))
      throw new BundleRefused('dataNotInConfiguration', { dataName: data.dataName });
  }
  for (const deposit of manifest.deposits) {
    const entry = entryOf(deposit.dataName);
    if (!entry || !isVersioned(entry))
      throw new BundleRefused('dataNotInConfiguration', { dataName: deposit.dataName });
    const components = entry.submission.referenceScopes.map((scope) => scope.component).sort();
    if (JSON.stringify(Object.keys(deposit.scope).sort()) !== JSON.stringify(components))
      throw new BundleRefused('badDepositScope', { entry: deposit.path });
    if (Boolean(entry.submission.timeScope) !== (deposit.from !== null && deposit.to !== null))
      throw new BundleRefused('badDepositPeriod', { entry: deposit.path });
  }
  checkPublishedVersions(manifest.deposits);
  const fileTypes = new Set([...model.additionalFiles.map((type) => type.name), ...CHARTER_TYPES]);
  for (const file of manifest.additionalFiles) {
    if (!fileTypes.has(file.fileType)) throw new BundleRefused('unknownFileType', { fileType: file.fileType });
    if (!isValidAdditionalFileName(file.fileName)) throw new BundleRefused('badFileName', { entry: file.path });
  }
}

/** Published versions of one dataset never overlap (publication replaces or refuses): a manifest saying so is refused. */
function checkPublishedVersions(deposits: readonly BundleDeposit[]) {
  const published = deposits.filter((deposit) => deposit.published);
  for (const [index, one] of published.entries()) {
    for (const other of published.slice(index + 1)) {
      if (
        one.dataName !== other.dataName ||
        JSON.stringify(Object.entries(one.scope).sort()) !== JSON.stringify(Object.entries(other.scope).sort())
      )
        continue;
      const apart =
        one.from !== null &&
        one.to !== null &&
        other.from !== null &&
        other.to !== null &&
        (one.to < other.from || other.to < one.from);
      if (!apart) throw new BundleRefused('overlappingPublishedVersions', { files: [one.fileName, other.fileName] });
    }
  }
}

/** Reads an entry while checking it is the one the manifest describes. */
async function* verified(
  archive: ZipArchive,
  file: BundleFile,
  onBytes: (count: number) => void,
): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of archive.read(file.path)) {
    hash.update(chunk);
    size += chunk.byteLength;
    onBytes(chunk.byteLength);
    yield chunk;
  }
  if (size !== file.size || hash.digest('hex') !== file.sha256)
    throw new BundleRefused('checksumMismatch', { entry: file.path });
}

function requireSize(file: BundleFile, maxBytes: number) {
  if (file.size > maxBytes) throw new BundleRefused('zipEntryTooLarge', { entry: file.path, maxBytes });
}

/** A small listed file (the configuration) whole, checked. */
async function verifiedWhole(
  archive: ZipArchive,
  file: BundleFile,
  maxBytes: number,
  onBytes: (count: number) => void,
): Promise<Buffer> {
  requireSize(file, maxBytes);
  const chunks: Uint8Array[] = [];
  for await (const chunk of verified(archive, file, onBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Additional files the restore writes per statement, when they are small. */
const ADDITIONAL_FILES_BATCH = 500;

/**
 * The additional files in the groups the restore writes them: small ones together (thousands of notes written one
 * statement each held the embedded database for as many), each larger one alone, its parts as they are read.
 */
function additionalFileGroups(files: readonly BundleAdditionalFile[]): BundleAdditionalFile[][] {
  const groups: BundleAdditionalFile[][] = [];
  let group: BundleAdditionalFile[] = [];
  let bytes = 0;
  for (const file of files) {
    const small = file.size <= SMALL_FILE_BYTES;
    if (
      group.length > 0 &&
      (!small || group.length >= ADDITIONAL_FILES_BATCH || bytes + file.size > SMALL_FILES_STATEMENT_BYTES)
    ) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    if (!small) groups.push([file]);
    else {
      group.push(file);
      bytes += file.size;
    }
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The row of a restored additional file: the restorer owns it, the backup's owner stays as text. */
function additionalFileRow(
  file: BundleAdditionalFile,
  fileId: string,
  size: number,
  applicationId: string,
  user: UserRow,
): Insertable<AdditionalFilesTable> {
  return {
    id: fileId,
    content_id: fileId,
    application_id: applicationId,
    file_type: file.fileType,
    file_name: file.fileName,
    name_key: additionalFileNameKey(file.fileName),
    content_type: file.contentType,
    size,
    comment: file.comment,
    fields: JSON.stringify(file.fields),
    associates: JSON.stringify(file.associates),
    for_application: file.forApplication,
    owner_id: user.id,
    original_owner: file.owner,
    created_at: file.createdAt,
    updated_at: file.updatedAt,
  };
}

const problem = (code: string, params: Record<string, unknown>) => ({ code, message: code, params });

/**
 * Creates the application `name` from a bundle, all or nothing (restoreInSteps.ts): the configuration, the rows of every
 * reference and data type (through the CSV engine, in load order), the deposited versions with their
 * publication, and the additional files. Any failure leaves nothing. Reports progress on the stream.
 * The restoring user is the depositor, publisher and owner of everything restored: a bundle may name anyone, so
 * the people it names are kept as text only (`original_*`), never matched with accounts.
 */
export async function streamRestore(
  ctx: ServerContext,
  user: UserRow,
  name: string,
  bundle: SpooledBundle,
  events: EventStream,
) {
  const { archive, manifest } = bundle;
  const total = listedFiles(manifest).reduce((sum, file) => sum + file.size, 0) || 1;
  let read = 0;
  const counted = (count: number) => {
    read += count;
  };
  const progress = () => events.progress(0.05 + 0.9 * (read / total));
  try {
    events.info('bundle.restore.manifest', {
      applicationName: name,
      kind: manifest.kind,
      version: manifest.application.version,
    });
    const configuration = await verifiedWhole(archive, manifest.configuration, MAX_CONFIGURATION_BYTES, counted);
    const validated = validateConfiguration(configuration, manifest.configuration.fileName);
    if (!validated.ok) {
      for (const error of validated.errors) {
        events.error('ValidationError', {
          ...problem(error.code, { ...error.params, path: error.path ?? '' }),
          message: configurationMessageKey(error.code),
          path: error.path,
          line: error.line,
          column: error.column,
        });
      }
      return;
    }
    const model = validated.value;
    checkAgainstModel(manifest, model);
    progress();
    const id = randomUUID();
    const counts = { rows: 0, deposits: 0, additionalFiles: 0 };

    await inRestoreSteps(ctx, id, async ({ db, batch, batchRows, parts: fileParts }) => {
      const comment = manifest.application.comment || model.comment;
      await db
        .insertInto('applications')
        .values({
          id,
          name,
          version: model.version,
          comment,
          summary: JSON.stringify(summarizeApplication(model)),
          model: serializeModel(model),
          creator_id: user.id,
          restoring_since: new Date(),
        })
        .execute();
      await db
        .insertInto('configurations')
        .values({
          id: randomUUID(),
          application_id: id,
          version: model.version,
          file_name: manifest.configuration.fileName,
          content: configuration,
          model: serializeModel(model),
          comment,
          uploaded_by: user.id,
        })
        .execute();
      await db
        .insertInto('application_roles')
        .values({ application_id: id, user_id: user.id, role: 'applicationManager' })
        .execute();

      const order = new Map(model.loadOrder.map((dataName, index) => [dataName, index]));
      const restored = manifest.data
        .filter((data) => data.restored)
        .sort((a, b) => order.get(a.dataName)! - order.get(b.dataName)!);
      for (const data of restored) {
        const entry = model.data.find((d) => d.name === data.dataName)!;
        for (const file of data.files) {
          events.info('bundle.restore.data', { dataName: entry.name, file: file.path });
          counts.rows += await ingestCsv(
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
        if (deposit.published) counts.rows += rowCount;
        counts.deposits += 1;
        versioned.add(entry.name);
        progress();
      }
      for (const dataName of versioned) await refreshCount(db, id, dataName);

      for (const group of additionalFileGroups(manifest.additionalFiles)) {
        if (group.length === 1 && group[0]!.size > SMALL_FILE_BYTES) {
          const file = group[0]!;
          events.info('bundle.restore.additionalFile', { fileType: file.fileType, file: file.fileName });
          requireSize(file, MAX_ADDITIONAL_FILE_BYTES);
          const fileId = randomUUID();
          const size = await fileParts(fileId).keep(verified(archive, file, counted));
          await db
            .insertInto('additional_files')
            .values(additionalFileRow(file, fileId, size, id, user))
            .execute();
        } else {
          const read: Array<{ row: Insertable<AdditionalFilesTable>; bytes: Uint8Array }> = [];
          for (const file of group) {
            events.info('bundle.restore.additionalFile', { fileType: file.fileType, file: file.fileName });
            const bytes = await verifiedWhole(archive, file, SMALL_FILE_BYTES, counted);
            read.push({ row: additionalFileRow(file, randomUUID(), bytes.byteLength, id, user), bytes });
          }
          // Parts and rows in one statement: a file is never left without its bytes, nor bytes without their file.
          await batch(() =>
            db
              .with('parts', (w) =>
                w
                  .insertInto('file_parts')
                  .values(read.map(({ row, bytes }) => ({ content_id: row.content_id, part: 0, bytes }))),
              )
              .insertInto('additional_files')
              .values(read.map(({ row }) => row))
              .execute(),
          );
        }
        counts.additionalFiles += group.length;
        progress();
      }
      await finishRestore(db, id);
    });
    events.result({ id, name, version: model.version, ...counts });
    events.progress(1);
  } catch (error) {
    reportFailure(ctx, name, error, events);
  } finally {
    events.end();
  }
}

/** A refused CSV names the file of the bundle it came from. */
function located(error: unknown, entry: string, dataName: string): unknown {
  if (error instanceof CsvRejected) {
    return new Refusal('BUNDLE_INVALID_CSV', {
      entry,
      dataName,
      errorCount: error.report.errorCount,
      errors: error.report.errors.slice(0, 20),
    });
  }
  return refusedZip(error);
}

function reportFailure(ctx: ServerContext, name: string, thrown: unknown, events: EventStream) {
  // A full disk or a database away is nobody's fault in the backup: said as such (STORAGE_FULL, DATABASE_UNAVAILABLE).
  const error = databaseFailure(thrown) ?? refusedZip(thrown);
  if (error instanceof Refusal || error instanceof InvalidInput) {
    events.error(
      error.code === 'INVALID_BUNDLE' ? 'InvalidBundle' : 'RestoreRefused',
      problem(error.code, error.params),
    );
  } else if ((error as { code?: string }).code === '23505') {
    events.error('ApplicationExists', problem('APPLICATION_EXISTS_ON_CREATION', { name }));
  } else {
    ctx.log(`restore of ${name} failed: ${(error as Error).message}`);
    events.error('InternalError', problem('INTERNAL_ERROR', {}));
  }
}
