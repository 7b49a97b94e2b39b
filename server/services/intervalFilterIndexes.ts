import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import { storedCount } from './dataRows.ts';
import { INDEXED_FROM_ROWS, indexFilteredComponents, intervalExpression } from './filterIndexes.ts';
import { storedKeys } from './rowQueries.ts';

/**
 * Asks for the indexes of the interval filters the data pages offer on an entry (each number and date it stores),
 * when the entry is still smaller than an index is worth: built then on the embedded database, whose one connection
 * a build holds, they take no time and grow with the rows a large write brings, so the first filter on the large
 * entry holds nobody (built at that filter, it held every user for seconds). Resolves once they are built.
 */
export async function indexIntervalFiltersWhileSmall(
  ctx: Pick<ServerContext, 'db' | 'log'>,
  applicationId: string,
  entry: DataEntry,
): Promise<void> {
  if ((await storedCount(ctx.db, applicationId, entry.name)) >= INDEXED_FROM_ROWS) return;
  const filtered = [...storedKeys(entry)]
    .filter(([, checker]) => intervalExpression(checker) !== 'text')
    .map(([component, checker]) => ({ component, expression: intervalExpression(checker) }));
  await indexFilteredComponents(ctx.db, applicationId, entry.name, filtered, ctx.log);
}
