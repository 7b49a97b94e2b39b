/** The Pike VM behind split, replaceAll, matches, ==~ and =~. */
import { describe, expect, it } from 'vitest';
import { compileRegex, matchesWhole, replaceRegex, searchRegex, splitRegex } from './javaRegex';

const noLimit = () => {};
const matches = (pattern: string, input: string) => matchesWhole(compileRegex(pattern), input, noLimit);
const find = (pattern: string, input: string) => {
  const slots = searchRegex(compileRegex(pattern), input, 0, noLimit);
  return slots && input.slice(slots[0], slots[1]);
};
const replaceAll = (pattern: string, input: string, replacement: string) =>
  replaceRegex(compileRegex(pattern), input, replacement, true, noLimit, noLimit);

describe('matching', () => {
  it('supports classes, quantifiers, groups, alternation and anchors', () => {
    expect(matches('[A-Z][a-z]+ \\d{2,4}', 'Lake 2024')).toBe(true);
    expect(matches('(ab|cd)*e?', 'abcdab')).toBe(true);
    expect(matches('a|ab', 'ab')).toBe(true);
    expect(matches('\\w+@\\w+\\.fr', 'me@site.fr')).toBe(true);
    expect(matches('[^,]+', 'a,b')).toBe(false);
    expect(matches('(?i)lake', 'LaKe')).toBe(true);
    expect(matches('\\p{Alpha}+\\P{Digit}', 'abc!')).toBe(true);
    expect(matches('\\Qa.b\\E', 'a.b')).toBe(true);
    expect(matches('\\Qa.b\\E', 'axb')).toBe(false);
    expect(matches('.', '\n')).toBe(false);
    expect(matches('(?s).', '\n')).toBe(true);
  });

  it('prefers the leftmost match, greedy or lazy as written', () => {
    expect(find('\\d+', 'ab 12 345')).toBe('12');
    expect(find('a.*b', 'a1b2b')).toBe('a1b2b');
    expect(find('a.*?b', 'a1b2b')).toBe('a1b');
    expect(find('\\bcat\\b', 'concat cat')).toBe('cat');
    expect(find('^x', 'ax')).toBe(null);
  });

  it('runs in linear time on patterns that make backtracking engines hang', () => {
    const input = 'a'.repeat(5000) + '!';
    const started = performance.now();
    expect(matches('(a+)+$', input)).toBe(false);
    expect(matches('(a|aa)*b', input)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('counts its steps so the evaluation budget covers it', () => {
    let steps = 0;
    matchesWhole(compileRegex('(a|b)*c'), 'abababab', () => steps++);
    expect(steps).toBeGreaterThan(8);
  });
});

describe('refused patterns', () => {
  it('name what needs a backtracking engine', () => {
    expect(() => compileRegex('(?=a)')).toThrowError(/lookaround/);
    expect(() => compileRegex('(a)\\1')).toThrowError(/back-references/);
    expect(() => compileRegex('a++')).toThrowError(/possessive/);
    expect(() => compileRegex('(?>a)')).toThrowError(/atomic/);
    expect(() => compileRegex('[a-z&&[^e]]')).toThrowError(/intersections/);
    expect(() => compileRegex('a{2000}')).toThrowError(/1000/);
    expect(() => compileRegex('(')).toThrowError(/never closed/);
    expect(() => compileRegex('*a')).toThrowError(/nothing to repeat/);
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
