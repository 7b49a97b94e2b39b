import { describe, expect, it } from 'vitest';
import { outboxItemSearch } from './outboxItemSearch';

describe('outboxItemSearch', () => {
  it('keeps a positive whole number, given as a number or as digits', () => {
    expect(outboxItemSearch({ outboxItem: 12 })).toEqual({ outboxItem: 12 });
    expect(outboxItemSearch({ outboxItem: '7' })).toEqual({ outboxItem: 7 });
  });

  it('drops what names no queued change', () => {
    for (const outboxItem of [undefined, '', ' ', 'abc', '1.5', 1.5, 0, -3, '-3', true, null, [1], '1e3', 2 ** 60]) {
      expect(outboxItemSearch({ outboxItem })).toEqual({});
    }
  });
});
