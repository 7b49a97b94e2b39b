import { Refusal } from '../../src/domain/errors/refusal.ts';
import { mayOpenVersion, versionOperation } from '../../src/domain/rights/versions.ts';
import type { ServerContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { readRights, refusal } from './dataAccess.ts';
import type { EntryContext } from './references.ts';
import { datasetOfFile } from './versionFiles.ts';

/**
 * Refuses a version the caller may not open (see mayOpenVersion). A published one they may not read whole gets a
 * code of its own: the screens then offer the rows they may read, through the data export. Reads no rows, so it
 * answers while a large write of the entry is under way (its progress is followed through it).
 */
export async function readableFileOf(
  ctx: ServerContext,
  data: EntryContext,
  file: {
    id: string;
    scope: Record<string, string>;
    period_from: Date | null;
    period_to: Date | null;
    published: boolean;
  },
  user: UserRow | null,
) {
  const { rights } = await readRights(ctx, user, data);
  if (mayOpenVersion(rights, data.entry.name, { ...datasetOfFile(file), published: file.published })) return;
  if (file.published)
    throw new Refusal('NO_RIGHT_FOR_WHOLE_VERSION', {
      name: data.application.name,
      dataName: data.entry.name,
      fileId: file.id,
    });
  throw refusal(versionOperation(file), data);
}
