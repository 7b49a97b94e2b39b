import { sql, type Expression, type SqlBool } from 'kysely';

/** A select of `data_rows` that another select of the same columns can be joined to, deduplicated. */
interface UnitedSelect<Q> {
  where(condition: Expression<SqlBool>): Q;
  union(other: Q): Q;
}

/**
 * The rows of `rows()` holding one of `keys` as their hierarchical or natural key: one select per key column, each
 * on that column's index, deduplicated by `union`. Written as one `or` of the columns, both engines priced the
 * three index searches together above a read of the whole entry once the keys were a few hundred (the spellings of
 * a page of an export) and read every row of a reference many times larger; each search alone they price right.
 * The natural-key indexes are partial (rows without a file, rows of versions): a condition that does not imply one
 * cannot use it.
 */
export function rowsByEitherKey<Q extends UnitedSelect<Q>>(rows: () => Q, keys: readonly string[]): Q {
  const [first, ...others] = [
    sql<SqlBool>`hierarchical_key = any(${keys}::text[])`,
    sql<SqlBool>`file_id is null and natural_key = any(${keys}::text[])`,
    sql<SqlBool>`file_id is not null and natural_key = any(${keys}::text[])`,
  ].map((condition) => rows().where(condition));
  return others.reduce((united, other) => united.union(other), first);
}
