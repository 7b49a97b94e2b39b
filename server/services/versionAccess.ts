import { mayOpenVersion, versionOperation } from '../../src/domain/rights/versions.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError } from '../http/apiError.ts';
import { readAccess, refusal } from './dataAccess.ts';
import { datasetOfFile } from './deposits.ts';
import type { EntryContext } from './references.ts';

/**
 * Refuses a version the caller may not open (see mayOpenVersion). A published one they may not read whole gets a
 * code of its own: the screens then offer the rows they may read, through the data export.
 */
export async function readableFileOf(
  ctx: ServerContext,
  data: EntryContext,
  file: { id: string; scope: Record<string, string>; period_from: Date | null; period_to: Date | null; published: boolean },
  user: UserRow | null,
) {
  const { rights } = await readAccess(ctx, user, data);
  if (mayOpenVersion(rights, data.entry.name, { ...datasetOfFile(file), published: file.published })) return;
  if (file.published) throw new ApiError(403, 'NO_RIGHT_FOR_WHOLE_VERSION', { name: data.application.name, dataName: data.entry.name, fileId: file.id });
  throw refusal(versionOperation(file), data);
}
