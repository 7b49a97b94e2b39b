import type { RowQuery } from './rowQuery.ts';

/**
 * Whether a deletion names its rows by `rowIds` or by `naturalKeys`, the only selections Terrain deletes by. The
 * original also deleted what `componentFilters` select; read here as no selection, such a query deleted nothing
 * and answered 200, and a script believed the rows gone: it is refused instead, as is a query selecting nothing.
 * Two selectors are refused too: the original deleted by the first alone, and doing otherwise deletes other rows.
 */
export const deletesByKeys = (query: RowQuery): boolean =>
  !query.componentFilters?.length && Boolean(query.rowIds?.length) !== Boolean(query.naturalKeys?.length);
