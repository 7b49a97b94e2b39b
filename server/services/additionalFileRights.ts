import {
  FILE_OPERATIONS,
  type FileOperation,
  type FileRights,
} from '../../src/domain/additionalFiles/authorization.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow, UserRow } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import { administers, rolesOf } from './applicationAccess.ts';
import { rightsOf } from './authorizations.ts';
import { requireSignedCharter } from './charter.ts';

/**
 * What a signed-in user may do with an application's additional files. Application managers (and creators of its
 * name, and platform administrators) may do everything; others hold operations per file type through
 * additional-file authorizations. Consulting and downloading are open to the application's users: whoever
 * holds a role on it, accepted its charter, holds a right on its data (public rights count), or any
 * additional-file right.
 */
export interface FileAccess {
  user: UserRow;
  manager: boolean;
  userManager: boolean;
  /** File type → operations held through additional-file authorizations. */
  byType: Map<string, Set<FileOperation>>;
  reader: boolean;
}

/** Operation → file types held by one user through the application's additional-file authorizations. */
export async function fileRightsHeld(
  ctx: ServerContext,
  userId: string,
  applicationId: string,
): Promise<Map<string, Set<FileOperation>>> {
  const rows = await ctx.db
    .selectFrom('additional_file_authorizations as a')
    .innerJoin('additional_file_authorization_users as u', 'u.authorization_id', 'a.id')
    .select('a.rights')
    .where('a.application_id', '=', applicationId)
    .where('u.user_id', '=', userId)
    .execute();
  const byType = new Map<string, Set<FileOperation>>();
  for (const { rights } of rows) {
    for (const operation of FILE_OPERATIONS) {
      for (const type of (rights as FileRights)[operation] ?? []) {
        if (!byType.has(type)) byType.set(type, new Set());
        byType.get(type)!.add(operation);
      }
    }
  }
  return byType;
}

export async function fileAccessOf(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
): Promise<FileAccess> {
  const roles = (await rolesOf(ctx.db, user.id)).get(application.id) ?? [];
  const manager = administers(user, application, roles);
  const userManager = roles.includes('userManager');
  const byType = await fileRightsHeld(ctx, user.id, application.id);
  // Accepting a charter is open to anyone signed in: it opens nothing by itself.
  let reader = manager || userManager || byType.size > 0;
  if (!reader) {
    const rights = await rightsOf(ctx, user, application);
    reader = application.model.data.some((entry) => rights.any('extraction', entry.name));
  }
  return { user, manager, userManager, byType, reader };
}

export const holds = (access: FileAccess, operation: FileOperation, fileType: string) =>
  access.manager || (access.byType.get(fileType)?.has(operation) ?? false);

/** Managers, and holders of `admin` on the type, change anyone's files; owners change theirs while they may deposit. */
export const mayEdit = (access: FileAccess, file: { file_type: string; owner_id: string | null }) =>
  holds(access, 'admin', file.file_type) ||
  (file.owner_id === access.user.id && holds(access, 'depot', file.file_type));

/** Managers, holders of `admin` or `delete` on the type, and the file's owner delete it. */
export const mayDelete = (access: FileAccess, file: { file_type: string; owner_id: string | null }) =>
  holds(access, 'admin', file.file_type) || holds(access, 'delete', file.file_type) || file.owner_id === access.user.id;

/** The caller's access, refused when they are not a user of the application (or must accept its charter first). */
export async function requireFileReader(
  ctx: ServerContext,
  user: UserRow,
  application: ApplicationRow,
): Promise<FileAccess> {
  await requireSignedCharter(ctx, user, application);
  const access = await fileAccessOf(ctx, user, application);
  if (!access.reader) throw new Refusal('NO_RIGHT_FOR_ADDITIONAL_FILES', { name: application.name });
  return access;
}
