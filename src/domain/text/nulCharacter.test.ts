import { describe, expect, it } from 'vitest';
import { holdsNulCharacter } from './nulCharacter.ts';

describe('holdsNulCharacter', () => {
  it('finds NUL in texts, keys and nested values', () => {
    expect(holdsNulCharacter('a\u0000b')).toBe(true);
    expect(holdsNulCharacter({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(holdsNulCharacter({ ['k\u0000']: 1 })).toBe(true);
  });

  it('lets ordinary values through', () => {
    expect(holdsNulCharacter({ a: ['é', 5, null, true], b: { c: '\\u0000' } })).toBe(false);
    expect(holdsNulCharacter(undefined)).toBe(false);
  });

  it('refuses structures deeper than any request', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(holdsNulCharacter(deep)).toBe(true);
  });
});
