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

type PlanNode = {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
};

/** Rows the scans of `table` in a plan read: those they gave and those their conditions then set aside. */
function scannedIn(node: PlanNode, table: string): number {
  const own =
    node['Relation Name'] === table
      ? ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + scannedIn(child, table), 0);
}

/**
 * The rows the database itself read in `table` for the statements `work` sends whose SQL includes `marker` (or that
 * `marker` accepts): each
 * is run again under EXPLAIN ANALYZE with its parameters. Rows brought back ({@link statementsOf}) do not show a
 * statement that reads thousands of rows to give a hundred (a deep OFFSET, a condition no index holds).
 */
export async function rowsScanned<T>(
  db: Kysely<Schema>,
  work: () => Promise<T>,
  marker: string | ((sql: string) => boolean),
  table = 'data_rows',
): Promise<[T, number]> {
  let owner: object = db.getExecutor();
  while (!Object.prototype.hasOwnProperty.call(owner, 'executeQuery')) owner = Object.getPrototypeOf(owner) as object;
  const shared = owner as { executeQuery: (...args: unknown[]) => Promise<{ rows: unknown[] }> };
  const original = shared.executeQuery;
  let scanned = 0;
  shared.executeQuery = async function (this: unknown, ...args: unknown[]) {
    const result = await original.apply(this, args);
    const compiled = args[0] as { sql: string };
    if (typeof marker === 'string' ? compiled.sql.includes(marker) : marker(compiled.sql)) {
      const explained = await original.apply(this, [
        { ...compiled, sql: `explain (analyze, format json) ${compiled.sql}` },
        ...args.slice(1),
      ]);
      const cell = Object.values(explained.rows[0] as Record<string, unknown>)[0];
      const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode }>;
      scanned += scannedIn(plan[0].Plan, table);
    }
    return result;
  };
  try {
    return [await work(), scanned];
  } finally {
    shared.executeQuery = original;
  }
}

/** A scan of a plan: how it reads (`Seq Scan`, `Index Scan`, `Bitmap Index Scan`…), which table and which index. */
export interface PlannedScan {
  node: string;
  table?: string;
  index?: string;
}

type PlannedNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlannedNode[] };

function scansIn(node: PlannedNode): PlannedScan[] {
  const own: PlannedScan[] =
    node['Relation Name'] || node['Index Name']
      ? [{ node: node['Node Type'], table: node['Relation Name'], index: node['Index Name'] }]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansIn)];
}

/**
 * The scans the planner chooses for each statement `work` sends whose SQL includes `marker` (or that `marker`
 * accepts), planned again under EXPLAIN with the same parameters: the plan, not a duration, tells whether a read
 * walks an index or every row of a table, whatever the machine.
 */
export async function plansOf<T>(
  db: Kysely<Schema>,
  work: () => Promise<T>,
  marker: string | ((sql: string) => boolean),
): Promise<[T, PlannedScan[][]]> {
  let owner: object = db.getExecutor();
  while (!Object.prototype.hasOwnProperty.call(owner, 'executeQuery')) owner = Object.getPrototypeOf(owner) as object;
  const shared = owner as { executeQuery: (...args: unknown[]) => Promise<{ rows: unknown[] }> };
  const original = shared.executeQuery;
  const plans: PlannedScan[][] = [];
  shared.executeQuery = async function (this: unknown, ...args: unknown[]) {
    const compiled = args[0] as { sql: string };
    if (typeof marker === 'string' ? compiled.sql.includes(marker) : marker(compiled.sql)) {
      const explained = await original.apply(this, [
        { ...compiled, sql: `explain (format json) ${compiled.sql}` },
        ...args.slice(1),
      ]);
      const cell = Object.values(explained.rows[0] as Record<string, unknown>)[0];
      const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlannedNode }>;
      plans.push(scansIn(plan[0].Plan));
    }
    return original.apply(this, args);
  };
  try {
    return [await work(), plans];
  } finally {
    shared.executeQuery = original;
  }
}
