import { additionalFileNameKey } from '../../src/domain/additionalFiles/fileName.ts';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  CHARTER_TYPE,
  CHARTER_TYPES,
  charterSigning,
  looksLikePdf,
  type CharterSigning,
} from '../../src/domain/applications/charter.ts';
import type { ApplicationRole } from '../../src/domain/applications/applicationView.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, Schema, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Upload } from '../http/readUpload.ts';
import { administers, rolesOf } from './applicationAccess.ts';
import { wholeStoredFile, writeFileParts } from './fileParts.ts';
import { isUuid } from '../../src/domain/text/uuid.ts';
import { applying } from '../db/appliedWork.ts';

/**
 * The application's usage charter: one PDF kept as the additional file of type `__charter__`. Users who must
 * sign it (see `charterSigning`) are refused the application's data until they accept it.
 */
export { CHARTER_TYPE, CHARTER_TYPES, isCharterType } from '../../src/domain/applications/charter.ts';

/** A charter is a document of a few pages; anything larger is a mistake. */
export const MAX_CHARTER_BYTES = 10 * 1024 * 1024;

/** The charter as stored: its PDF, and when it was uploaded (acceptances older than that no longer count). */
export interface StoredCharter {
  fileName: string;
  content: Uint8Array;
  uploadedAt: Date;
}

type Db = Kysely<Schema>;

/** When the current charter of each application was uploaded (applications without one are absent). */
export async function charterTimes(db: Db, applicationIds: readonly string[]): Promise<Map<string, Date>> {
  if (applicationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('additional_files')
    .select(['application_id', 'updated_at'])
    .where('application_id', 'in', applicationIds)
    .where('file_type', 'in', CHARTER_TYPES)
    .execute();
  return new Map(rows.map((row) => [row.application_id, row.updated_at]));
}

/** Managers, user managers, creators of the application and platform administrators never sign. */
export const exemptFromCharter = (
  user: UserRow,
  application: Pick<ApplicationRow, 'name'>,
  roles: readonly ApplicationRole[],
) => administers(user, application, roles) || roles.includes('userManager');

/** An application, with when its charter was uploaded when that was read with it (null: it has none). */
type CharteredApplication = Pick<ApplicationRow, 'id' | 'name'> & { charterUploadedAt?: Date | null };

/** Where the user stands with the application's charter. */
export async function charterSigningOf(
  ctx: ServerContext,
  user: UserRow,
  application: CharteredApplication,
): Promise<CharterSigning> {
  const uploadedAt =
    application.charterUploadedAt === undefined
      ? (await charterTimes(ctx.db, [application.id])).get(application.id)
      : (application.charterUploadedAt ?? undefined);
  const accepted = user.chartes[application.id];
  // Most calls come from people who accepted, or meet no charter at all: no need to read their roles then.
  const quick = charterSigning(accepted, uploadedAt, false);
  if (!quick.mustSignCharter) return quick;
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  return charterSigning(accepted, uploadedAt, exemptFromCharter(user, application, roles));
}

/**
 * Refuses the application's data to a signed-in user who must accept its charter first. Visitors are never
 * asked: they have no account to record an acceptance, and they only ever get what was made public.
 */
export async function requireSignedCharter(
  ctx: ServerContext,
  user: UserRow | null,
  application: CharteredApplication,
) {
  if (!user) return;
  if ((await charterSigningOf(ctx, user, application)).mustSignCharter)
    throw new Refusal('CHARTER_NOT_SIGNED', { name: application.name, applicationId: application.id });
}

/**
 * Replaces the application's charter with a PDF (managers only, checked before the file is read). The new
 * upload time asks every user to accept again.
 */
export async function uploadCharter(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
  readFile: () => Promise<Upload>,
): Promise<string> {
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  if (!administers(user, application, roles))
    throw new Refusal('NO_RIGHT_FOR_APPLICATION_MANAGEMENT', { name: application.name });
  const upload = await readFile();
  if (upload.bytes.byteLength === 0) throw new Refusal('EMPTY_FILE', { fileName: upload.fileName });
  if (!looksLikePdf(upload.bytes)) throw new Refusal('CHARTER_NOT_PDF', { fileName: upload.fileName });
  const id = randomUUID();
  await ctx.db.transaction().execute((trx) =>
    applying(trx, async () => {
      // Two uploads at once: the second waits for the first instead of meeting its row under the same name. An
      // acceptance waits too (acceptCharter), and one recorded before is older than the time taken once this holds
      // the row: it does not count for this charter, which nobody had seen.
      await trx.selectFrom('applications').select('id').where('id', '=', application.id).forUpdate().execute();
      const now = await afterEveryAcceptance(trx, application.id, ctx.clock.now());
      await trx
        .deleteFrom('additional_files')
        .where('application_id', '=', application.id)
        .where('file_type', 'in', CHARTER_TYPES)
        .execute();
      const parts = writeFileParts(trx, id);
      await parts.add(upload.bytes);
      await parts.end();
      await trx
        .insertInto('additional_files')
        .values({
          id,
          content_id: id,
          application_id: application.id,
          file_type: CHARTER_TYPE,
          file_name: upload.fileName,
          name_key: additionalFileNameKey(upload.fileName),
          content_type: 'application/pdf',
          size: upload.bytes.byteLength,
          for_application: true,
          owner_id: user.id,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }),
  );
  return id;
}

/**
 * The time a new charter of the application is stamped with: `now`, or later than every acceptance recorded for it.
 * Acceptances and charters are compared by time, and instances' clocks may disagree: a charter stamped by a clock
 * behind the one that stamped an acceptance would count as accepted by someone who never saw it.
 */
async function afterEveryAcceptance(db: Db | Transaction<Schema>, applicationId: string, now: Date): Promise<Date> {
  // Read as texts and compared as `charterSigning` reads them: a stored value that is no time counts for nothing.
  const { rows } = await sql<{ accepted: unknown }>`
    select chartes -> ${applicationId} as accepted from users where chartes ? ${applicationId}`.execute(db);
  let latest = now.getTime() - 1;
  for (const { accepted } of rows) {
    const time = typeof accepted === 'string' ? Date.parse(accepted) : NaN;
    if (!Number.isNaN(time) && time > latest) latest = time;
  }
  return latest < now.getTime() ? now : new Date(latest + 1);
}

/** The charter's PDF, for any signed-in user: it must be readable before it is accepted. */
export async function readCharter(
  ctx: ServerContext,
  application: Pick<ApplicationRow, 'id' | 'name'>,
): Promise<StoredCharter> {
  const row = await ctx.db
    .selectFrom('additional_files')
    .select(['file_name', 'content_id', 'size', 'updated_at'])
    .where('application_id', '=', application.id)
    .where('file_type', 'in', CHARTER_TYPES)
    .executeTakeFirst();
  if (!row) throw new Refusal('NO_CHARTER', { name: application.name });
  return {
    fileName: row.file_name,
    content: await wholeStoredFile(ctx.db, row.content_id, row.size),
    uploadedAt: row.updated_at,
  };
}

/**
 * Records now as the user's acceptance of the application's charter (`PUT /users` with `charte`, an application id).
 * With `readUploadedAt` (the charter's `uploadedAt` as the person read it), only while that is still the charter: an
 * acceptance queued offline and sent after the charter was replaced must not count for a text nobody showed them.
 */
export async function acceptCharter(
  ctx: ServerContext,
  user: UserRow,
  applicationId: string,
  readUploadedAt?: string,
): Promise<UserRow> {
  const read = readUploadedAt === undefined ? undefined : Date.parse(readUploadedAt);
  if (read !== undefined && Number.isNaN(read)) throw new Refusal('BAD_REQUEST', { reason: 'charterUploadedAt' });
  return ctx.db.transaction().execute(async (trx) => {
    // Compared and recorded while no charter replaces this one (uploadCharter holds the row for update): a
    // replacement under way is waited for, and then found; one coming later stamps a time after this acceptance.
    const application = isUuid(applicationId)
      ? await trx
          .selectFrom('applications')
          .select(['id', 'name'])
          .where('id', '=', applicationId)
          .where('restoring_since', 'is', null)
          .forShare()
          .executeTakeFirst()
      : undefined;
    if (!application) throw new Refusal('NO_SUCH_APPLICATION', { name: applicationId });
    const uploadedAt = (await charterTimes(trx, [application.id])).get(application.id);
    if (!uploadedAt) throw new Refusal('NO_CHARTER', { name: application.name });
    if (read !== undefined && uploadedAt.getTime() !== read)
      throw new Refusal('CHARTER_CHANGED', { name: application.name });
    // Later than the charter it accepts, whatever the clock of the instance that stamped it said.
    const acceptedAt = new Date(Math.max(ctx.clock.now().getTime(), uploadedAt.getTime() + 1));
    const accepted = JSON.stringify({ [application.id]: acceptedAt.toISOString() });
    // Merged in the database: two acceptances at once (two tabs, two applications) both stay.
    return trx
      .updateTable('users')
      .set({ chartes: sql<string>`chartes || ${accepted}::jsonb`, update_date: new Date() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}
