/** Set.of, List.of and Map.of: Java's immutable factories, with Java's refusals. */
import { describe, expect, it } from 'vitest';
import { failure, run, text } from './testKit';

describe('collection factories', () => {
  it('build the lists of allowed codes that checks test', () => {
    const source = 'Set.of("", "0", "1", "2").contains(datum.quality)';
    expect(run(source, { datum: { quality: '1' } })).toBe(true);
    expect(run(source, { datum: { quality: '3' } })).toBe(false);
    expect(run("java.util.List.of('a', 'b').size() + List.of().size()")).toBe(2);
    expect(run("'b' in java.util.Set.of('a', 'b')")).toBe(true);
  });

  it('build maps of keys and values', () => {
    expect(text("java.util.Map.of('a', 1, 'b', [2])")).toBe('[a:1, b:[2]]');
    expect(run("Map.of('value', datum.x).value", { datum: { x: 'v' } })).toBe('v');
    expect(text('Map.of()')).toBe('[:]');
  });

  it('refuse null elements and duplicates, as Java does', () => {
    expect(failure("Set.of('a', null)").code).toBe('nullDereference');
    expect(failure("List.of('a', datum.missing)", { datum: {} }).code).toBe('nullDereference');
    expect(failure("Map.of('a', null)").code).toBe('nullDereference');
    expect(failure("Set.of('a', 'a')").code).toBe('badArguments');
    expect(failure("Map.of('a', 1, 'a', 2)").code).toBe('badArguments');
    expect(failure("Map.of('a')").code).toBe('badArguments');
    expect(failure('Map.of(1.5, 1)').code).toBe('unsupportedMapKey');
  });

  it('declare sets as lists', () => {
    expect(run("Set<String> codes = Set.of('x'); codes.contains('x')")).toBe(true);
  });
});
