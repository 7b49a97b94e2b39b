import type { Kysely } from 'kysely';
import type { Schema } from '../../server/db/schema.ts';

/**
 * The statements `work` sends through a server's database handle, the rows they read (of `table` only, when
 * named) and the most one of them read: a list whose statements grow with its length (one per item) holds the embedded database's one session for
 * seconds at real size, and one that reads every item to give a page is as slow as the list is long, whatever the
 * machine.
 */
export async function statementsOf<T>(
  db: Kysely<Schema>,
  work: () => Promise<T>,
  table?: string,
): Promise<[T, number, number, number]> {
  // On the executors' shared prototype, so that statements inside transactions (their own executors) count too.
  let owner: object = db.getExecutor();
  while (!Object.prototype.hasOwnProperty.call(owner, 'executeQuery')) owner = Object.getPrototypeOf(owner) as object;
  const shared = owner as { executeQuery: (...args: unknown[]) => Promise<{ rows: unknown[] }> };
  const original = shared.executeQuery;
  let count = 0;
  let rows = 0;
  let largest = 0;
  shared.executeQuery = async function (this: unknown, ...args: unknown[]) {
    count++;
    const result = await original.apply(this, args);
    if (!table || (args[0] as { sql: string }).sql.includes(`"${table}"`)) {
      rows += result.rows.length;
      largest = Math.max(largest, result.rows.length);
    }
    return result;
  };
  try {
    return [await work(), count, rows, largest];
  } finally {
    shared.executeQuery = original;
  }
}
