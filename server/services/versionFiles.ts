import type { ServerContext } from '../context.ts';
import type { DepositFilesTable } from '../db/schema.ts';
import { Refusal } from '../../src/domain/errors/refusal.ts';
import type { EntryContext } from './references.ts';

/**
 * What is known of a deposited file, without its bytes (`storedFile` of fileParts.ts reads them): the publication state is asked
 * every second while a version is published, and reading a 20 MB file for it took 110 ms of the server's thread.
 */
const FILE_FACTS = [
  'id',
  'application_id',
  'data_name',
  'file_name',
  'size',
  'scope',
  'period_from',
  'period_to',
  'comment',
  'created_by',
  'created_at',
  'published',
  'published_by',
  'published_at',
  'row_count',
] as const satisfies ReadonlyArray<keyof DepositFilesTable>;

export async function fileOf(ctx: ServerContext, data: Pick<EntryContext, 'application'>, fileId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(fileId))
    throw new Refusal('NO_SUCH_FILE', { fileId });
  const file = await ctx.db
    .selectFrom('deposit_files')
    .select(FILE_FACTS)
    .where('id', '=', fileId)
    .where('application_id', '=', data.application.id)
    .executeTakeFirst();
  if (!file) throw new Refusal('NO_SUCH_FILE', { fileId });
  return file;
}

export type DepositFile = Awaited<ReturnType<typeof fileOf>>;

/** A stored date-time as the API writes it: to the second, without a zone. */
export const isoOf = (date: Date) => date.toISOString().slice(0, 19);

/** A stored version's dataset, as rights see it. */
export function datasetOfFile(file: {
  scope: Record<string, string>;
  period_from: Date | null;
  period_to: Date | null;
}) {
  return {
    scopes: file.scope,
    from: file.period_from ? isoOf(file.period_from) : null,
    to: file.period_to ? isoOf(file.period_to) : null,
  };
}

export const sameScope = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
