import { useLingui } from '@lingui/react/macro';
import { Pager } from '@/components/ui/pager';
import { pageCount, pagerPages, pagerVisible } from '@/lib/paging';

interface ListPagerProps {
  /** Items in the whole list, and how many a page shows. */
  total: number;
  size: number;
  page: number;
  onChange(page: number): void;
}

/** The pager under a list shown a page at a time, labelled in the interface's language; shown from a page's worth. */
export function ListPager({ total, size, page, onChange }: ListPagerProps) {
  const { t } = useLingui();
  if (!pagerVisible(total, size)) return null;
  const count = pageCount(total, size);
  return (
    <Pager
      page={page}
      count={count}
      pages={pagerPages(page, count)}
      onChange={onChange}
      labels={{ navigation: t`Pages`, previous: t`Previous page`, next: t`Next page`, page: (n) => t`Page ${n}` }}
    />
  );
}
