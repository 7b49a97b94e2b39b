import { describe, expect, it } from 'vitest';
import { RowWindow } from './rowWindow.ts';

/** What a window keeps of `pages` read in turn, and the total it counts. */
function through(window: RowWindow, pages: number[][]) {
  const kept = pages.flatMap((page) => window.keep(page));
  return { kept, total: window.total };
}

const pages = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7],
];

describe('row window', () => {
  it('keeps the rows from the offset, as many as the limit, across pages, and counts them all', () => {
    expect(through(new RowWindow(2, 3), pages)).toEqual({ kept: [2, 3, 4], total: 8 });
    expect(through(new RowWindow(4, 1), pages)).toEqual({ kept: [4], total: 8 });
  });

  it('keeps every row from the offset on without a limit', () => {
    expect(through(new RowWindow(0, null), pages)).toEqual({ kept: [0, 1, 2, 3, 4, 5, 6, 7], total: 8 });
    expect(through(new RowWindow(5, null), pages)).toEqual({ kept: [5, 6, 7], total: 8 });
  });

  it('keeps nothing with a limit of 0, or an offset past the end, but still counts', () => {
    expect(through(new RowWindow(3, 0), pages)).toEqual({ kept: [], total: 8 });
    expect(through(new RowWindow(20, 5), pages)).toEqual({ kept: [], total: 8 });
    expect(through(new RowWindow(20, null), pages)).toEqual({ kept: [], total: 8 });
  });

  it('keeps a window that ends past the stream, and takes empty pages', () => {
    expect(through(new RowWindow(6, 10), [[], ...pages, []])).toEqual({ kept: [6, 7], total: 8 });
  });

  it('keeps a window that falls inside one page', () => {
    expect(through(new RowWindow(1, 1), [[0, 1, 2, 3]])).toEqual({ kept: [1], total: 4 });
  });
});
