import { describe, expect, it } from 'vitest';
import { shownParams } from './problems';

describe('what a configuration problem repeats of a value', () => {
  it('bounds texts, lists, maps and nesting alike, and keeps small values as they are', () => {
    const small = { name: 'sites', values: ['a', 'b'], where: { line: 3, keys: ['x'] }, count: 2, none: null };
    expect(shownParams(small)).toEqual(small);
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, 'x'.repeat(1_000)]));
    const nested = { a: { b: { c: { d: { e: 'deep' } } } } };
    const shown = shownParams({ wide, nested, long: ['y'.repeat(5_000)] });
    expect(Object.keys(shown.wide as object)).toHaveLength(51);
    expect((shown.wide as Record<string, string>).key0).toHaveLength(301);
    expect(shown.nested).toEqual({ a: { b: { c: { d: '…' } } } });
    expect(JSON.stringify(shown).length).toBeLessThan(20_000);
  });
});
