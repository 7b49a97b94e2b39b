import { describe, expect, it } from 'vitest';
import { memoized } from './memoized';

describe('memoized', () => {
  it('computes each input once, null answers included', () => {
    const seen: string[] = [];
    const length = memoized((text) => (seen.push(text), text === '' ? null : text.length));
    expect([length('abc'), length('abc'), length(''), length(''), length('de')]).toEqual([3, 3, null, null, 2]);
    expect(seen).toEqual(['abc', '', 'de']);
  });

  it('keeps at most its capacity, then starts afresh', () => {
    let computed = 0;
    const upper = memoized((text) => (computed++, text.toUpperCase()), 2);
    upper('a');
    upper('b');
    upper('c');
    expect(computed).toBe(3);
    upper('c');
    expect(computed).toBe(3);
    upper('a');
    expect(computed).toBe(4);
  });
});
