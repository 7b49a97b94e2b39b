import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { additionalFileNameKey } from '../../src/domain/additionalFiles/fileName.ts';
import type { BundleAdditionalFile } from '../../src/domain/bundle/manifest.ts';
import type { AdditionalFilesTable, UserRow } from '../db/schema.ts';
import { SMALL_FILE_BYTES, SMALL_FILES_STATEMENT_BYTES } from './fileParts.ts';
import type { RestoreRun } from './restoreRun.ts';
import { requireSize, verified, verifiedWhole } from './verifiedEntries.ts';

/** The largest additional file a restore takes whatever the instance's upload limit: one a default instance held. */
const RESTORED_FILE_BYTES = 200 * 1024 * 1024;

/**
 * The largest additional file a restore takes: whatever this instance accepts on upload, and never less than a
 * default instance held (a backup of an instance whose limit was raised restores on one whose limit is raised too).
 */
export const restorableFileBytes = (uploadLimitBytes: number) => Math.max(RESTORED_FILE_BYTES, uploadLimitBytes);

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

/** Stores every additional file the bundle holds. Answers how many. */
export async function restoreAdditionalFiles(run: RestoreRun): Promise<number> {
  const { writes, archive, manifest, applicationId: id, user, events, counted, progress } = run;
  const { db, batch, parts: fileParts } = writes;
  let restored = 0;
  for (const group of additionalFileGroups(manifest.additionalFiles)) {
    if (group.length === 1 && group[0]!.size > SMALL_FILE_BYTES) {
      const file = group[0]!;
      events.info('bundle.restore.additionalFile', { fileType: file.fileType, file: file.fileName });
      requireSize(file, restorableFileBytes(run.ctx.config.additionalFileMaxBytes));
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
    restored += group.length;
    progress();
  }
  return restored;
}
