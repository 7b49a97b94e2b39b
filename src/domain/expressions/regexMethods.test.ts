/** Java's String methods over regular expressions, and how the expression engine meets the regex engine. */
import { describe, expect, it } from 'vitest';
import { compileRegex, replaceRegex, splitRegex } from './regexMethods';

const noLimit = () => {};
const replaceAll = (pattern: string, input: string, replacement: string) =>
  replaceRegex(compileRegex(pattern), input, replacement, true, noLimit, noLimit);

describe('refused patterns', () => {
  it('are invalidRegex errors naming the reason', () => {
    expect(() => compileRegex('(?=a)')).toThrowError(/look-ahead needs a backtracking engine/);
    expect(() => compileRegex('(a)\\1')).toThrowError(/back-reference/);
    expect(() => compileRegex('a++')).toThrowError(/possessive/);
    expect(() => compileRegex('(?>a)')).toThrowError(/atomic/);
    expect(() => compileRegex('(')).toThrowError(/Unclosed group/);
    expect(() => compileRegex('*a')).toThrowError(/Dangling meta character/);
    expect(() => compileRegex('(')).toThrowError(expect.objectContaining({ code: 'invalidRegex' }));
  });

  it('accept what the configuration engine accepts', () => {
    expect(compileRegex('[a-z&&[^e]]').matches('a')).toBe(true);
    expect(compileRegex('a(?i)b').matches('aB')).toBe(true);
  });
});

describe('the evaluation budget', () => {
  it('is told the steps of every match', () => {
    let steps = 0;
    compileRegex('(a|b)*c').matches('abababab', (taken) => (steps += taken));
    expect(steps).toBeGreaterThan(8);
    steps = 0;
    compileRegex('(a|b)+c').find('abababab', 0, (taken) => (steps += taken));
    expect(steps).toBeGreaterThan(8);
  });
});

describe('split and replace', () => {
  it('split like String.split', () => {
    const split = (pattern: string, input: string) => splitRegex(compileRegex(pattern), input, noLimit);
    expect(split(',', 'a,,b,,')).toEqual(['a', '', 'b']);
    expect(split('\\s*;\\s*', 'a ; b;c')).toEqual(['a', 'b', 'c']);
    expect(split('', 'abc')).toEqual(['a', 'b', 'c']);
    expect(split('\\|', 'a|b')).toEqual(['a', 'b']);
  });

  it('expand $n, ${name} and escapes in replacements', () => {
    expect(replaceAll('(\\w+)@(\\w+)', 'me@home you@work', '$2:$1')).toBe('home:me work:you');
    expect(replaceAll('(?<year>\\d{4})', 'in 2024', '[${year}]')).toBe('in [2024]');
    expect(replaceAll('\\.', 'a.b', '\\$')).toBe('a$b');
    expect(replaceAll('x*', 'abc', '-')).toBe('-a-b-c-');
    expect(() => replaceAll('a', 'a', '$2')).toThrowError(/no group 2/);
  });
});
