import { storeConfiguration } from './configurationRows.ts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';
import type {
  ApplicationPart,
  ApplicationRole,
  ApplicationView,
} from '../../src/domain/applications/applicationView.ts';
import { updateImpact, type DataLossSummary } from '../../src/domain/applications/updateImpact.ts';
import { readJsonParameter } from '../../src/contract/jsonParameter.ts';
import { ConfirmedLossSchema } from '../../src/contract/applications.ts';
import { outlineOf } from '../../src/domain/applications/outline.ts';
import { summarizeApplication, type ApplicationSummary } from '../../src/domain/applications/summary.ts';
import {
  configurationMessageKey,
  serializeModel,
  type ApplicationModel,
  type ConfigurationResult,
} from '../../src/domain/configuration/index.ts';
import type { DomainError } from '../../src/domain/errors/index.ts';
import type { StreamProblem } from '../../src/domain/streaming/events.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal, InvalidInput } from '../../src/domain/errors/refusal.ts';
import { databaseFailure } from '../http/databaseErrors.ts';
import { failStream, type EventStream } from '../http/eventStream.ts';
import { checkConfiguration } from './configurationCheck.ts';
import type { Upload } from '../http/readUpload.ts';
import { administers, isCreatorOf, requireCreatableName, rolesOf } from './applicationAccess.ts';
import { rowCounts } from './dataRows.ts';
import { rulesFor } from './authorizations.ts';
import { Rights } from '../../src/domain/rights/access.ts';
import { charterSigning } from '../../src/domain/applications/charter.ts';
import { fileRightsHeld } from './additionalFileRights.ts';
import { CHARTER_TYPES, charterTimes, exemptFromCharter } from './charter.ts';
import { KeptResults } from './keptResults.ts';
import { inUpdateTransaction, recheckImpact, refuseUnsafeUpdate, type UpdateOptions } from './configurationUpdate.ts';
import { applying } from '../db/appliedWork.ts';

/** Configurations are YAML files or zips of them, at most this large (the zip reader bounds what they inflate to). */
export const MAX_CONFIGURATION_BYTES = 20 * 1024 * 1024;
export const MAX_COMMENT_LENGTH = 200;

type ListedRow = Pick<
  ApplicationRow,
  'id' | 'name' | 'version' | 'comment' | 'summary' | 'creator_id' | 'creation_date' | 'update_date'
>;

const wantsCounts = (parts: ReadonlySet<ApplicationPart>) =>
  parts.has('ALL') || parts.has('REFERENCETYPE') || parts.has('DATATYPE') || parts.has('DATA');

/** Per data entry: its stored rows, and its write version (raised by every write to its rows). */
type EntryCounts = Record<string, { lines: number; version: number }>;

/** Stored rows and write version per data entry, for each of the applications. */
async function lineCountsOf(ctx: ServerContext, applicationIds: string[]): Promise<Map<string, EntryCounts>> {
  const counts = new Map<string, EntryCounts>(applicationIds.map((id) => [id, {}]));
  if (applicationIds.length === 0) return counts;
  const rows = await ctx.db
    .selectFrom('entry_counts')
    .selectAll()
    .where('application_id', 'in', applicationIds)
    .execute();
  for (const row of rows)
    counts.get(row.application_id)![row.data_name] = { lines: Number(row.line_count), version: Number(row.version) };
  return counts;
}

/** What a user may do with the data of each application, and where they hold an authorization of their own. */
async function dataRightsOf(
  ctx: ServerContext,
  user: UserRow,
  rows: readonly ListedRow[],
  roles: Map<string, ApplicationRole[]>,
) {
  const ids = rows.map((r) => r.id);
  const rules = await rulesFor(ctx, ids, user.id);
  const own = ids.length
    ? await ctx.db
        .selectFrom('authorizations as a')
        .innerJoin('authorization_users as u', 'u.authorization_id', 'a.id')
        .select('a.application_id')
        .where('a.application_id', 'in', ids)
        .where('u.user_id', '=', user.id)
        .execute()
    : [];
  const holders = new Set(own.map((o) => o.application_id));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        rights: new Rights(administers(user, row, roles.get(row.id) ?? []), rules.get(row.id) ?? []),
        holder: holders.has(row.id),
      },
    ]),
  );
}

/**
 * Row counts of the entries the user may read whole (0 for those without rows): a count also tells about rows one
 * may not read, so readers restricted to part of an entry learn theirs on its page, from their own rows.
 */
function readableCounts(summary: ApplicationSummary, rights: Rights, stored: EntryCounts): Record<string, number> {
  const readable = [...summary.references, ...summary.dataTypes].filter((name) => rights.all('extraction', name));
  return Object.fromEntries(readable.map((name) => [name, stored[name]?.lines ?? 0]));
}

/**
 * The write version of every entry the user may read rows of, whole or in part: a device keeping a copy of the
 * entry downloads it again once the version moved (someone else's change included).
 */
function readableVersions(summary: ApplicationSummary, rights: Rights, stored: EntryCounts): Record<string, number> {
  const readable = [...summary.references, ...summary.dataTypes].filter((name) => rights.any('extraction', name));
  return Object.fromEntries(readable.map((name) => [name, stored[name]?.version ?? 0]));
}

/**
 * Who may read an application's data, and so see its whole configuration rather than its outline: those who
 * administer it, its user managers (they give reading rights on every entry), whoever may read some rows of some
 * entry (public authorizations included), and holders of an additional-file right (the forms of their files and
 * the data they attach to are described there).
 */
async function mayReadData(
  ctx: ServerContext,
  user: UserRow,
  application: FoundApplication,
  roles: ApplicationRole[],
  rights: Rights,
): Promise<boolean> {
  if (administers(user, application, roles) || roles.includes('userManager')) return true;
  if (application.model.data.some((entry) => rights.any('extraction', entry.name))) return true;
  return (await fileRightsHeld(ctx, user.id, application.id)).size > 0;
}

function viewOf(
  row: ListedRow,
  user: UserRow,
  roles: ApplicationRole[],
  parts: ReadonlySet<ApplicationPart>,
  access: { rights: Rights; holder: boolean },
  charterUploadedAt: Date | undefined,
  lineCounts?: EntryCounts,
): ApplicationView {
  const { rights } = access;
  const summary: ApplicationSummary = row.summary;
  const all = parts.has('ALL');
  const isCreator = isCreatorOf(user, row.name);
  const signing = charterSigning(user.chartes[row.id], charterUploadedAt, exemptFromCharter(user, row, roles));
  // Counts and write versions are figures of the rows: held back, as the rows are, until the charter is accepted.
  const mayCount = !signing.mustSignCharter;
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    comment: row.comment,
    creationDate: row.creation_date.toISOString(),
    updateDate: row.update_date.toISOString(),
    title: summary.title,
    description: summary.description,
    defaultLanguage: summary.defaultLanguage,
    ...(all || parts.has('REFERENCETYPE') ? { references: summary.references } : {}),
    ...(all || parts.has('DATATYPE') || parts.has('DATA') ? { dataTypes: summary.dataTypes } : {}),
    ...(all || parts.has('ADDITIONALFILE') ? { additionalFiles: summary.additionalFiles } : {}),
    ...(all || parts.has('RIGHTSREQUEST') ? { hasRightsRequest: summary.hasRightsRequest } : {}),
    currentApplicationUserRolesResult: {
      applicationRoles: roles,
      userId: user.id,
      userLogin: user.login,
      isTerrainAdmin: user.terrain_admin,
      isApplicationCreator: isCreator,
      memberOf: roles.map((role) => `${row.id}_${role}`),
      isDataBaseSuper: false,
    },
    ...signing,
    hasCharter: charterUploadedAt !== undefined,
    ...(charterUploadedAt ? { charterUploadedAt: charterUploadedAt.toISOString() } : {}),
    isMember: roles.length > 0 || row.creator_id === user.id || access.holder,
    isAdministrator: administers(user, row, roles),
    ...(lineCounts
      ? {
          lineCounts: mayCount ? readableCounts(summary, rights, lineCounts) : {},
          entryVersions: mayCount ? readableVersions(summary, rights, lineCounts) : {},
        }
      : {}),
    canReadReference: summary.references.some((name) => rights.any('extraction', name)),
    canWriteReference: summary.references.some((name) => rights.all('depot', name)),
    canReadDatatype: summary.dataTypes.some((name) => rights.any('extraction', name)),
    canWriteDatatype: summary.dataTypes.some((name) => rights.any('depot', name)),
  };
}

const listedColumns = [
  'id',
  'name',
  'version',
  'comment',
  'summary',
  'creator_id',
  'creation_date',
  'update_date',
] as const;

/** The list is read in pages by name, a small one first, so that the first cards leave while the rest is read. */
const FIRST_LIST_PAGE = 20;
const LIST_PAGE = 100;

/** Streams every application of the platform, as the user may see it, in name order, with progress. */
export async function streamApplications(
  ctx: ServerContext,
  user: UserRow,
  parts: ReadonlySet<ApplicationPart>,
  events: EventStream,
) {
  const [{ count }, roles] = await Promise.all([
    ctx.db
      .selectFrom('applications')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('restoring_since', 'is', null)
      .executeTakeFirstOrThrow(),
    rolesOf(ctx.db, user.id),
  ]);
  events.info('application.list', { count: String(count) });
  let sent = 0;
  let after: string | undefined;
  for (;;) {
    const pageSize = sent === 0 ? FIRST_LIST_PAGE : LIST_PAGE;
    let page = ctx.db
      .selectFrom('applications')
      .select(listedColumns)
      .where('restoring_since', 'is', null)
      .orderBy('name')
      .limit(pageSize);
    if (after !== undefined) page = page.where('name', '>', after);
    const rows = await page.execute();
    const counts = wantsCounts(parts)
      ? await lineCountsOf(
          ctx,
          rows.map((r) => r.id),
        )
      : undefined;
    const access = await dataRightsOf(ctx, user, rows, roles);
    const charters = await charterTimes(
      ctx.db,
      rows.map((r) => r.id),
    );
    for (const row of rows) {
      events.result(
        viewOf(
          row,
          user,
          roles.get(row.id) ?? [],
          parts,
          access.get(row.id)!,
          charters.get(row.id),
          counts?.get(row.id),
        ),
      );
      sent += 1;
      // Applications created while the list streams may outnumber the count read first.
      events.progress(sent / Math.max(count, sent));
    }
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1].name;
  }
  if (sent < count || sent === 0) events.progress(1);
  events.end();
}

/** An application as every call finds it: its row, its model, and when its charter was uploaded. */
export interface FoundApplication extends ApplicationRow {
  /** Null without a charter. Read with the row: every data call checks it. */
  charterUploadedAt: Date | null;
}

/**
 * Parsed models per application and model version (every configuration change raises it): the model is the
 * largest part of the row, and parsing it at every request cost more than the rest of a data page.
 */
const keptModels = new KeptResults<ApplicationModel>(100);

/** The configuration changed between the reading of the row and of its model: read again. */
class ModelChangedMeanwhile extends Error {}

async function readModel(ctx: ServerContext, id: string, modelVersion: number): Promise<ApplicationModel> {
  const row = await ctx.db
    .selectFrom('applications')
    .select('model')
    .where('id', '=', id)
    .where('model_version', '=', modelVersion)
    .executeTakeFirst();
  if (!row) throw new ModelChangedMeanwhile();
  return row.model;
}

/** An application by name or id, or 404 NO_SUCH_APPLICATION. */
export async function findApplication(ctx: ServerContext, nameOrId: string): Promise<FoundApplication> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(nameOrId);
  for (;;) {
    const row = await ctx.db
      .selectFrom('applications')
      .select([...listedColumns, 'rights_version', 'model_version'])
      .select((eb) =>
        eb
          .selectFrom('additional_files')
          .select((files) => files.fn.max('updated_at').as('uploaded_at'))
          .whereRef('additional_files.application_id', '=', 'applications.id')
          .where('file_type', 'in', CHARTER_TYPES)
          .as('charter_uploaded_at'),
      )
      .where((eb) => (isId ? eb.or([eb('id', '=', nameOrId), eb('name', '=', nameOrId)]) : eb('name', '=', nameOrId)))
      .where('restoring_since', 'is', null)
      .executeTakeFirst();
    if (!row) throw new Refusal('NO_SUCH_APPLICATION', { name: nameOrId });
    try {
      const model = await keptModels.keep(`${row.id}:${row.model_version}`, () =>
        readModel(ctx, row.id, row.model_version),
      );
      const { charter_uploaded_at, ...columns } = row;
      return { ...columns, model, charterUploadedAt: charter_uploaded_at ?? null };
    } catch (error) {
      if (!(error instanceof ModelChangedMeanwhile)) throw error;
    }
  }
}

export async function getApplication(
  ctx: ServerContext,
  user: UserRow,
  nameOrId: string,
  parts: ReadonlySet<ApplicationPart>,
): Promise<ApplicationView> {
  const row = await findApplication(ctx, nameOrId);
  const allRoles = await rolesOf(ctx.db, user.id);
  const roles = allRoles.get(row.id) ?? [];
  const counts = wantsCounts(parts) ? await lineCountsOf(ctx, [row.id]) : undefined;
  const access = (await dataRightsOf(ctx, user, [row], allRoles)).get(row.id)!;
  const charter = row.charterUploadedAt ?? undefined;
  const view = viewOf(row, user, roles, parts, access, charter, counts?.get(row.id));
  if (parts.has('ALL') || parts.has('CONFIGURATION')) {
    if (await mayReadData(ctx, user, row, roles, access.rights)) view.configuration = row.model;
    else view.outline = outlineOf(row.model);
  }
  const versions = await ctx.db
    .selectFrom('configurations')
    .select(['version', 'uploaded_at', 'comment'])
    .where('application_id', '=', row.id)
    .orderBy('uploaded_at', 'desc')
    .execute();
  view.versions = versions.map((v) => ({
    version: v.version,
    uploadedAt: v.uploaded_at.toISOString(),
    comment: v.comment,
  }));
  return view;
}

function problemOf(error: DomainError): StreamProblem {
  return {
    code: error.code,
    message: configurationMessageKey(error.code),
    params: { ...error.params, path: error.path ?? '' },
    path: error.path,
    line: error.line,
    column: error.column,
    ...(error.file ? { file: error.file } : {}),
  };
}

const isZip = (fileName: string) => fileName.toLowerCase().endsWith('.zip');

/** Checks the upload is a configuration file at all; what is inside is the validator's business. */
export function requireConfigurationFile(upload: Upload) {
  const name = upload.fileName.toLowerCase();
  if (!name.endsWith('.yaml') && !name.endsWith('.yml') && !name.endsWith('.zip'))
    throw new Refusal('BAD_CONFIGURATION_FILE_TYPE', { fileName: upload.fileName });
  if (upload.bytes.byteLength === 0) throw new Refusal('EMPTY_FILE', { fileName: upload.fileName });
}

export function readComment(upload: Upload, fromQuery?: string): string | undefined {
  const comment = upload.fields.comment ?? fromQuery;
  if (comment !== undefined && comment.length > MAX_COMMENT_LENGTH)
    throw new Refusal('COMMENT_TOO_LONG', { max: MAX_COMMENT_LENGTH });
  return comment;
}

/** A yes-or-no form field: `true` or `false`, anything else is a bad request (as the query's would be). */
function formFlag(upload: Upload, name: string): boolean | undefined {
  const value = upload.fields[name];
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new Refusal('BAD_REQUEST', { reason: name });
  return value === 'true';
}

/** Dry run and confirmation of an update, from the form's fields or else the query. */
export function readUpdateOptions(
  upload: Upload,
  query: { dryRun?: boolean; confirmDataLoss?: boolean },
): UpdateOptions {
  const fromVersion = upload.fields.fromVersion;
  const confirmedLoss = confirmedLossOf(upload.fields.confirmedLoss);
  return {
    dryRun: formFlag(upload, 'dryRun') ?? query.dryRun ?? false,
    confirmDataLoss: formFlag(upload, 'confirmDataLoss') ?? query.confirmDataLoss ?? false,
    ...(fromVersion !== undefined ? { fromVersion } : {}),
    ...(confirmedLoss !== undefined ? { confirmedLoss } : {}),
  };
}

/** The `confirmedLoss` field: the summary of a dry run's loss, as JSON; anything else is a bad request. */
function confirmedLossOf(text: string | undefined): DataLossSummary | undefined {
  const read = readJsonParameter(ConfirmedLossSchema, text);
  if (!read.ok) throw new Refusal('BAD_REQUEST', { reason: 'confirmedLoss' });
  return read.value;
}

/**
 * Validates (in a worker thread) and reports on the stream, warnings included (they never stop it); answers the
 * model when the configuration is valid. A validation the server could not finish is reported as its error.
 */
async function validateOnStream(
  ctx: ServerContext,
  upload: Upload,
  events: EventStream,
  prefix: string,
  applicationName: string,
): Promise<ApplicationModel | undefined> {
  events.info(`${prefix}.parsingConfiguration.${isZip(upload.fileName) ? 'forMulti' : 'forSingle'}`, {
    applicationName,
  });
  events.progress(0.1);
  let result: ConfigurationResult;
  try {
    result = await checkConfiguration(ctx, upload.bytes, upload.fileName);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    events.error('ValidationError', { code: error.code, message: error.code, params: error.params });
    return undefined;
  }
  events.progress(0.6);
  for (const warning of result.warnings) events.warning('ValidationWarning', problemOf(warning));
  if (!result.ok) {
    for (const error of result.errors) events.error('ValidationError', problemOf(error));
    return undefined;
  }
  events.info(`${prefix}.parsingConfiguration.endparsing`, { applicationName: result.value.name });
  return result.value;
}

/** `POST /validate-configuration`: nothing is written; the result is the model, or null. */
export async function streamValidation(ctx: ServerContext, upload: Upload, events: EventStream) {
  try {
    const model = await validateOnStream(ctx, upload, events, 'application.createConfiguration', '');
    events.result(model ?? null);
    events.progress(1);
    events.end();
  } catch (error) {
    failStream(events, error, ctx.log);
  }
}

export async function streamCreation(
  ctx: ServerContext,
  user: UserRow,
  name: string,
  upload: Upload,
  comment: string | undefined,
  events: EventStream,
) {
  try {
    const model = await validateOnStream(ctx, upload, events, 'application.createConfiguration', name);
    if (!model) return;
    events.info('application.configuration.create.register.start', { applicationName: name });
    const id = randomUUID();
    const finalComment = comment ?? model.comment;
    await ctx.db.transaction().execute((trx) =>
      applying(trx, async () => {
        await trx
          .insertInto('applications')
          .values({
            id,
            name,
            version: model.version,
            comment: finalComment,
            summary: JSON.stringify(summarizeApplication(model)),
            model: serializeModel(model),
            creator_id: user.id,
          })
          .execute();
        await storeConfiguration(trx, {
          applicationId: id,
          model,
          fileName: upload.fileName,
          content: upload.bytes,
          comment: finalComment,
          uploadedBy: user.id,
        });
        await trx
          .insertInto('application_roles')
          .values({ application_id: id, user_id: user.id, role: 'applicationManager' })
          .execute();
      }),
    );
    events.progress(0.9);
    events.result({ id, name, version: model.version });
    events.progress(1);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      events.error('ApplicationExists', {
        code: 'APPLICATION_EXISTS_ON_CREATION',
        message: 'APPLICATION_EXISTS_ON_CREATION',
        params: { name },
      });
    } else if (databaseFailure(error)) {
      // A full disk or a database away is nobody's fault in the configuration: said as such.
      const refusal = databaseFailure(error)!;
      events.error('DatabaseRefused', { code: refusal.code, message: refusal.code, params: refusal.params });
    } else {
      ctx.log(`creation of ${name} failed: ${(error as Error).message}`);
      events.error('InternalError', { code: 'INTERNAL_ERROR', message: 'INTERNAL_ERROR', params: {} });
    }
  } finally {
    events.end();
  }
}

/** Refusals that do not need the file: the name, the rights, an existing application. */
export async function checkCreation(ctx: ServerContext, user: UserRow, name: string) {
  requireCreatableName(user, name);
  // An application being restored keeps its name: it is hidden, not absent.
  const existing = await ctx.db.selectFrom('applications').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) throw new Refusal('APPLICATION_EXISTS_ON_CREATION', { name });
}

export async function checkUpdate(ctx: ServerContext, user: UserRow, nameOrId: string) {
  const application = await findApplication(ctx, nameOrId);
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  if (!administers(user, application, roles))
    throw new Refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: application.name });
  return application;
}

/**
 * What a backup checks again while it is sent (`sentWhileAllowed`): it holds every row, and its taker must still
 * manage the application, signed in.
 */
export function stillUpdating(
  ctx: ServerContext,
  callerNow: () => Promise<UserRow | null>,
  applicationId: string,
): () => Promise<void> {
  return async () => {
    const user = await callerNow();
    if (!user) throw new Refusal('NOT_AUTHENTICATED');
    await checkUpdate(ctx, user, applicationId);
  };
}

/** Rows stored per data entry of an application (tests may stand in their own counts). */
export type RowCounter = (
  db: Kysely<Schema> | Transaction<Schema>,
  applicationId: string,
) => Promise<Record<string, number>>;
export const countStoredRows: RowCounter = (db, applicationId) => rowCounts(db, applicationId);

export async function streamUpdate(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  upload: Upload,
  comment: string | undefined,
  options: UpdateOptions,
  events: EventStream,
  countRows: RowCounter = countStoredRows,
) {
  try {
    events.info('application.ChangeConfiguration.configuration.rights.checking', { applicationName: application.name });
    const model = await validateOnStream(
      ctx,
      upload,
      events,
      'application.ChangeConfiguration.configuration',
      application.name,
    );
    if (!model) return;
    if (model.version === application.version) {
      events.error('ApplicationExists', {
        code: 'APPLICATION_VERSION_EXISTS',
        message: 'APPLICATION_VERSION_EXISTS',
        params: { name: application.name, version: model.version },
      });
      return;
    }
    if (options.fromVersion !== undefined && options.fromVersion !== application.version) {
      // Prepared from a version that is no longer current (another update came first): what was weighed and
      // confirmed was the impact on that version.
      events.error('UpdateFailed', {
        code: 'APPLICATION_CHANGED_MEANWHILE',
        message: 'APPLICATION_CHANGED_MEANWHILE',
        params: { name: application.name, version: application.version, fromVersion: options.fromVersion },
      });
      return;
    }
    events.info('application.ChangeConfiguration.configuration.migrate', { applicationName: application.name });
    const impact = updateImpact(application.model, model, await countRows(ctx.db, application.id));
    if (!options.dryRun && refuseUnsafeUpdate(impact, options, events)) return;
    await recheckImpact(ctx, application.id, model, impact, events, { from: 0.6, to: 0.85 });
    if (options.dryRun) {
      events.result({ dryRun: true, impact });
      events.progress(1);
      return;
    }
    const finalComment = comment ?? model.comment;
    const weighed = { previous: application.model, next: model, impact, recount: countRows };
    await inUpdateTransaction(ctx, application.id, weighed, async (trx) => {
      const updated = await trx
        .updateTable('applications')
        .set({
          version: model.version,
          comment: finalComment,
          summary: JSON.stringify(summarizeApplication(model)),
          model: serializeModel(model),
          model_version: sql<number>`model_version + 1`,
          update_date: sql<Date>`now()`,
        })
        .where('id', '=', application.id)
        // Two updates racing: the second one finds the version changed under it and stops.
        .where('version', '=', application.version)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new Refusal('APPLICATION_CHANGED_MEANWHILE');
      await storeConfiguration(trx, {
        applicationId: application.id,
        model,
        fileName: upload.fileName,
        content: upload.bytes,
        comment: finalComment,
        uploadedBy: user.id,
      });
    });
    events.progress(0.9);
    events.result({ id: application.id, name: application.name, version: model.version, impact });
    events.progress(1);
  } catch (error) {
    // A write conflict, a full disk or a database away is nobody's fault in the configuration: said as such.
    const refusal = databaseFailure(error);
    const code =
      error instanceof Refusal || error instanceof InvalidInput
        ? error.code
        : (error as { code?: string }).code === '23505'
          ? 'APPLICATION_VERSION_EXISTS'
          : (refusal?.code ?? 'INTERNAL_ERROR');
    if (code === 'INTERNAL_ERROR') ctx.log(`update of ${application.name} failed: ${(error as Error).message}`);
    const own = error instanceof Refusal ? error.params : {};
    events.error('UpdateFailed', {
      code,
      message: code,
      params: { name: application.name, ...own, ...refusal?.params },
    });
  } finally {
    events.end();
  }
}

/** The configuration exactly as uploaded, for the current version or the one asked for. */
export async function configurationFile(ctx: ServerContext, user: UserRow, nameOrId: string, version?: string) {
  const application = await checkUpdate(ctx, user, nameOrId);
  const file = await ctx.db
    .selectFrom('configurations')
    .select(['file_name', 'content', 'version'])
    .where('application_id', '=', application.id)
    .where('version', '=', version ?? application.version)
    .orderBy('uploaded_at', 'desc')
    .executeTakeFirst();
  if (!file)
    throw new Refusal('NO_SUCH_CONFIGURATION_VERSION', {
      name: application.name,
      version: version ?? application.version,
    });
  return file;
}
