import { describe, expect, it } from 'vitest';
import { pageCount, pageOf, pagerPages, pagerVisible } from './paging';

describe('paging', () => {
  it('cuts pages and shows two pages around the current one', () => {
    const many = Array.from({ length: 40 }, (_, i) => i);
    expect(pageOf(many, 2, 9)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(pageCount(40, 9)).toBe(5);
    expect(pageCount(0, 9)).toBe(1);
    expect(pagerPages(1, 5)).toEqual([1, 2, 3]);
    expect(pagerPages(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerPages(5, 5)).toEqual([3, 4, 5]);
  });

  it('shows a pager only from a full page of items', () => {
    expect(pagerVisible(8, 9)).toBe(false);
    expect(pagerVisible(9, 9)).toBe(true);
  });
});
