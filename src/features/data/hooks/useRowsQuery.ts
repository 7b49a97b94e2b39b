import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ComponentFilter, ComponentOrder, RowQuery } from '@/domain/rows/rowQuery';

export const PAGE_SIZES = [10, 25, 50];

/** The query a table opens on: its first page, unfiltered, unsorted. */
export const firstPageQuery = (locale: string): RowQuery => ({
  offset: 0,
  limit: PAGE_SIZES[0],
  componentFilters: [],
  componentOrderBy: [],
  outPut: { locale },
});

/** Which rows of an entry are asked for: filters, order on one column, page and its size; any change but the page goes back to the first. */
export function useRowsQuery() {
  const { i18n } = useLingui();
  const [filters, setFilters] = useState<ComponentFilter[]>([]);
  const [order, setOrder] = useState<ComponentOrder[]>([]);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(PAGE_SIZES[0]);

  const query: RowQuery = useMemo(
    () => ({ offset: (page - 1) * size, limit: size, componentFilters: filters, componentOrderBy: order, outPut: { locale: i18n.locale } }),
    [page, size, filters, order, i18n.locale],
  );

  /** Ascending, then descending, then unsorted. */
  function toggleOrder(key: string) {
    const current = order.find((o) => o.componentKey === key);
    setOrder(current?.order === 'ASC' ? [{ componentKey: key, order: 'DESC' }] : current ? [] : [{ componentKey: key, order: 'ASC' }]);
    setPage(1);
  }

  function changeFilters(next: ComponentFilter[]) {
    setFilters(next);
    setPage(1);
  }

  function changeSize(next: number) {
    setSize(next);
    setPage(1);
  }

  return { query, filters, changeFilters, order, toggleOrder, page, setPage, size, changeSize };
}
