import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { mayOpenVersion, readsPartOfVersion } from '../../src/domain/rights/versions.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { findApplication, type FoundApplication } from './applications.ts';
import { rightsOf } from './authorizations.ts';
import { requireSignedCharter } from './charter.ts';
import type { EntryContext } from './references.ts';
import { datasetOfFile, fileOf, type DepositFile } from './versionFiles.ts';

/** A version as rights see it. */
export const placeOfFile = (file: DepositFile) => ({ ...datasetOfFile(file), published: file.published });

/**
 * A version the caller may open (see mayOpenVersion), with its data type and the caller's rights. The rights are
 * read before the version: a version they may not open answers as one that does not exist (404 NO_SUCH_FILE), so
 * that nobody learns which ids exist, of which data type, published or not. A published one they may read part of
 * gets a code of its own: the screens then offer the rows they may read, through the data export. Reads no rows, so
 * it answers while a large write of the entry is under way (its progress is followed through it).
 */
export async function openableVersion(
  ctx: ServerContext,
  application: FoundApplication,
  fileId: string,
  user: UserRow | null,
): Promise<{ file: DepositFile; data: EntryContext; rights: Rights }> {
  await requireSignedCharter(ctx, user, application);
  const rights = await rightsOf(ctx, user, application);
  const model = application.model;
  if (!user && !model.data.some((entry) => rights.any('extraction', entry.name)))
    throw new Refusal('NOT_AUTHENTICATED');
  const file = await fileOf(ctx, { application }, fileId);
  const entry = model.data.find((d) => d.name === file.data_name && d.kind === 'dataType');
  if (!entry) throw new Refusal('NO_SUCH_FILE', { fileId });
  const data = { application, model, entry };
  requireOpenable(rights, data, file);
  return { file, data, rights };
}

/** Refuses a version of `data` the caller may not open, as openableVersion does. */
export function requireOpenable(rights: Rights, data: EntryContext, file: DepositFile): void {
  const place = placeOfFile(file);
  if (file.data_name === data.entry.name && mayOpenVersion(rights, data.entry.name, place)) return;
  if (file.data_name === data.entry.name && file.published && readsPartOfVersion(rights, data.entry.name, place))
    throw new Refusal('NO_RIGHT_FOR_WHOLE_VERSION', {
      name: data.application.name,
      dataName: data.entry.name,
      fileId: file.id,
    });
  throw new Refusal('NO_SUCH_FILE', { fileId: file.id });
}

/** What a deposited file's download checks again while it runs (`sentWhileAllowed`): the caller may still open it. */
export function stillOpenable(
  ctx: ServerContext,
  callerNow: () => Promise<UserRow | null>,
  applicationId: string,
  fileId: string,
): () => Promise<void> {
  return async () => {
    // Read again: the rights kept for the application go by the version it had when the download began.
    await openableVersion(ctx, await findApplication(ctx, applicationId), fileId, await callerNow());
  };
}
