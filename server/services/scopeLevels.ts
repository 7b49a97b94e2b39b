import { sql, type RawBuilder } from 'kysely';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import { storedCount } from './dataRows.ts';

export type StoredNode = { hierarchical_key: string; natural_key: string; values: Record<string, unknown> };

/** A level of a large tree (the first one, or the children of `parent`), from after the node `after`. */
export interface LevelAsked {
  parent?: string;
  after?: string;
  offset: number;
  limit: number;
}

export const isRecursive = (entry: DataEntry) => entry.hierarchy.recursiveComponent != null;

/**
 * Whether a key (an SQL expression) is on the level asked. A reference that is not its own parent is one level:
 * its rows lie under rows of other references (a site's key begins with its project's), which the tree does not
 * show. In a recursive one, a row whose key's second-to-last label is not one of the reference's own has no parent
 * in it. A child of `parent` has no label after the one that follows `parent`.
 */
function onLevel(entry: DataEntry, parent: string | undefined, key: RawBuilder<string>) {
  if (parent !== undefined) return sql<boolean>`strpos(substr(${key}, ${parent.length + 2}), '.') = 0`;
  if (!isRecursive(entry)) return sql<boolean>`true`;
  const own = `${entry.name}K`;
  return sql<boolean>`coalesce(left(substring(${key} from ${'([^.]*)\\.[^.]*$'}), ${own.length}), '') <> ${own}`;
}

const rowsOf = (application: ApplicationRow, entry: DataEntry, table: string) =>
  sql`${sql.ref(`${table}.application_id`)} = ${application.id} and ${sql.ref(`${table}.data_name`)} = ${entry.name}
    and ${sql.ref(`${table}.file_id`)} is null`;

/**
 * The keys at or past `from` within the level's range of the hierarchical-key index (`~>=~`/`~<~` are the
 * operators of its text_pattern_ops: `.` then `/` bound every key beginning with `parent.`).
 */
function inRange(parent: string | undefined, key: RawBuilder<string>, from: RawBuilder<string>) {
  const below = parent === undefined ? sql`true` : sql`${key} ~>=~ ${`${parent}.`} and ${key} ~<~ ${`${parent}/`}`;
  return sql<boolean>`${key} ~>=~ (${from}) and ${below}`;
}

/**
 * The keys of a recursive reference's level, walked through the hierarchical-key index from one node of the level
 * to the next: each step reads the first key at or past the previous one's `key/`, past every key below it (`key.`
 * sorts before `key/`). A node's descendants lie between it and the next node of its level, so reading the level
 * in key order with a condition read every descendant on the way (a page of the first level read the thousand
 * sectors of each region before it); walked, a page reads its nodes and the rows, if any, whose parent is missing.
 * Each key comes with its step, the order of the walk.
 */
function walkedLevel(application: ApplicationRow, entry: DataEntry, parent: string | undefined, after?: string) {
  const start = after !== undefined ? `${after}/` : parent !== undefined ? `${parent}.` : '';
  const key = sql.ref<string>('d.hierarchical_key');
  return sql`with recursive walk(key, step) as (
    select (select d.hierarchical_key from data_rows d where ${rowsOf(application, entry, 'd')}
              and ${inRange(parent, key, sql`${start}`)} order by d.hierarchical_key using ~<~ limit 1), 1
    union all
    select (select d.hierarchical_key from data_rows d where ${rowsOf(application, entry, 'd')}
              and ${inRange(parent, key, sql`walk.key || '/'`)} order by d.hierarchical_key using ~<~ limit 1),
           walk.step + 1
    from walk where walk.key is not null
  )`;
}

/**
 * The children of each of `parents`, walked as {@link walkedLevel} walks a level, all parents in one statement:
 * `walk(parent, key)`, one row per child and none for a node without children.
 */
export function walkedChildren(application: ApplicationRow, entry: DataEntry, parents: string[]) {
  const key = sql.ref<string>('d.hierarchical_key');
  const next = (from: RawBuilder<string>, parent: RawBuilder<string>) =>
    sql<string>`(select d.hierarchical_key from data_rows d where ${rowsOf(application, entry, 'd')}
      and ${key} ~>=~ (${from}) and ${key} ~<~ (${parent} || '/') order by d.hierarchical_key using ~<~ limit 1)`;
  const parent = sql.ref<string>('p.key');
  return sql`with recursive walk(parent, key) as (
    select * from (select ${parent} as parent, ${next(sql`${parent} || '.'`, parent)} as key
                   from unnest(${parents}::text[]) as p(key)) f where f.key is not null
    union all
    select walk.parent, ${next(sql`walk.key || '/'`, sql.ref('walk.parent'))}
    from walk where walk.key is not null
  )`;
}

/**
 * A page of a level of a large tree in the order of the hierarchical-key index, beginning after `after` (keyset:
 * the index is entered there, whatever the page's depth), and how many nodes the level holds, counted only for a
 * page asked from the level's beginning: a count reads the whole level, which a page after a node must not.
 */
export async function readLevel(
  ctx: ServerContext,
  application: ApplicationRow,
  entry: DataEntry,
  asked: LevelAsked,
): Promise<{ rows: StoredNode[]; total?: number }> {
  const { parent, after, offset, limit } = asked;
  if (isRecursive(entry)) {
    const walk = () => walkedLevel(application, entry, parent, after);
    const onWalk = onLevel(entry, parent, sql.ref<string>('walk.key'));
    const page = await sql<StoredNode>`${walk()}
      select r.hierarchical_key, r.natural_key, r.values
      from (select key, step from walk where key is not null and ${onWalk} limit ${limit} offset ${offset}) k
      join data_rows r on ${rowsOf(application, entry, 'r')} and r.hierarchical_key = k.key
      order by k.step`.execute(ctx.db);
    if (after !== undefined) return { rows: page.rows };
    const counted = await sql<{ count: string }>`${walk()}
      select count(*) as count from walk where key is not null and ${onWalk}`.execute(ctx.db);
    return { rows: page.rows, total: Number(counted.rows[0]?.count ?? 0) };
  }
  const level = () => {
    let rows = ctx.db
      .selectFrom('data_rows')
      .where('application_id', '=', application.id)
      .where('data_name', '=', entry.name)
      .where('file_id', 'is', null);
    if (parent !== undefined)
      rows = rows
        .where(inRange(parent, sql.ref<string>('hierarchical_key'), sql`${`${parent}.`}`))
        .where(onLevel(entry, parent, sql.ref<string>('hierarchical_key')));
    return rows;
  };
  let page = level();
  if (after !== undefined) page = page.where(sql<boolean>`hierarchical_key ~>~ ${after}`);
  const rows = await page
    .select(['hierarchical_key', 'natural_key', 'values'])
    .orderBy(sql`hierarchical_key using ~<~`)
    .limit(limit)
    .offset(offset)
    .execute();
  if (after !== undefined) return { rows };
  // Outside a recursive reference every row is on the first level: the kept count says how many, without a scan.
  const total =
    parent === undefined
      ? await storedCount(ctx.db, application.id, entry.name)
      : Number(
          (
            await level()
              .select((eb) => eb.fn.countAll<string>().as('count'))
              .executeTakeFirst()
          )?.count ?? 0,
        );
  return { rows, total };
}
