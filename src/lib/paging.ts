import { SCOPE_NODES_PAGE } from '@/contract/authorizations';

/** Client-side paging shared by the lists of the interface. */
export const PAGER_RANGE = 2;

export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** Page numbers around the current one, `range` on each side. */
export function pagerPages(current: number, count: number, range = PAGER_RANGE): number[] {
  const first = Math.max(1, current - range);
  const last = Math.min(count, current + range);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** A pager shows only when there are at least a page's worth of items. */
export const pagerVisible = (total: number, size: number) => total >= size;

/**
 * Parts of a scope tree shown at first under an opened node, and added by each "Show more": a scope reference of
 * 20,000 sites opened whole put 20,000 rows of boxes in the page at once. A large tree's level is read from the
 * server a page at a time, one page for each "Show more": the two are one number.
 */
export const TREE_PARTS_SHOWN = SCOPE_NODES_PAGE;
