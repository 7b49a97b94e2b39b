import { sql, type Kysely } from 'kysely';
import type { BundleDeposit } from '../../src/domain/bundle/manifest.ts';
import type { Schema } from '../db/schema.ts';
import { segment } from './bundlePaths.ts';
import { storedFile } from './fileParts.ts';
import type { ZipOutput } from './zipOutput.ts';

/** The deposited versions a backup keeps, in the order of their deposit. */
export async function depositsOf(db: Kysely<Schema>, applicationId: string) {
  return db
    .selectFrom('deposit_files as f')
    .leftJoin('users as c', 'c.id', 'f.created_by')
    .leftJoin('users as p', 'p.id', 'f.published_by')
    .select([
      'f.id',
      'f.data_name',
      'f.file_name',
      'f.size',
      'f.row_count',
      'f.comment',
      'f.scope',
      'f.period_from',
      'f.period_to',
      'f.created_at',
      'f.published',
      'f.published_at',
      // Who did it in the application a restored version came from, else the account.
      sql<string | null>`coalesce(f.original_depositor, c.login)`.as('created_login'),
      sql<string | null>`coalesce(f.original_publisher, p.login)`.as('published_login'),
    ])
    .where('f.application_id', '=', applicationId)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
}

const isoLocal = (date: Date | null) => (date ? date.toISOString().slice(0, 19) : null);

/** The files of `deposits` with their scope, period and publication. */
export async function* backupDeposits(
  zip: ZipOutput,
  db: Kysely<Schema>,
  deposits: Awaited<ReturnType<typeof depositsOf>>,
): AsyncGenerator<Uint8Array, BundleDeposit[]> {
  const depositList: BundleDeposit[] = [];
  for (const deposit of deposits) {
    const path = `deposits/${deposit.data_name}/${deposit.id}/${segment(deposit.file_name)}`;
    const file = yield* zip.add(path, storedFile(db, deposit.id, deposit.size));
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
