import type { Kysely } from 'kysely';
import type { BundleDeposit } from '../../src/domain/bundle/manifest.ts';
import type { Schema } from '../db/schema.ts';
import { segment } from './bundlePaths.ts';
import { backupVersions } from './backupVersions.ts';
import type { ZipOutput } from './zipOutput.ts';

const isoLocal = (date: Date | null) => (date ? date.toISOString().slice(0, 19) : null);

/** The files of the application's versions (`backupVersions`) with their scope, period and publication. */
export async function* backupDeposits(
  zip: ZipOutput,
  db: Kysely<Schema>,
  applicationId: string,
): AsyncGenerator<Uint8Array, BundleDeposit[]> {
  const depositList: BundleDeposit[] = [];
  for await (const [deposit, content] of backupVersions(db, applicationId)) {
    const path = `deposits/${deposit.data_name}/${deposit.id}/${segment(deposit.file_name)}`;
    const file = yield* zip.add(path, content);
    depositList.push({
      ...file,
      dataName: deposit.data_name,
      fileName: deposit.file_name,
      rowCount: deposit.row_count,
      comment: deposit.comment,
      scope: deposit.scope,
      from: isoLocal(deposit.period_from),
      to: isoLocal(deposit.period_to),
      createdAt: deposit.created_at.toISOString(),
      createdBy: deposit.created_login,
      published: deposit.published,
      publishedAt: deposit.published_at ? deposit.published_at.toISOString() : null,
      publishedBy: deposit.published_login,
    });
  }
  return depositList;
}
