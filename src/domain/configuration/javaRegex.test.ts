import { describe, expect, it } from 'vitest';
import { compileJavaRegex, wholeTextRegExp } from './javaRegex';

function matches(source: string, text: string): boolean {
  const compiled = compileJavaRegex(source);
  if (!compiled.ok) throw new Error(compiled.message);
  return wholeTextRegExp(compiled.regex).test(text);
}

describe('Java regular expressions', () => {
  it('keeps the corpus patterns and counts their groups', () => {
    expect(compileJavaRegex('SWC(@?)_(.*)_(.*)')).toMatchObject({ ok: true, regex: { groupCount: 3 } });
    expect(compileJavaRegex('(.*)!(.*)!(.*)!(.*).csv')).toMatchObject({ ok: true, regex: { groupCount: 4 } });
    expect(compileJavaRegex('(?<site>[a-z]+)_(?:x|y)')).toMatchObject({ ok: true, regex: { groupCount: 1 } });
    expect(matches('[A-Z]{3}[0-9]{3}', 'AAA001')).toBe(true);
    expect(matches('[A-Z]{3}[0-9]{3}', 'aaa001')).toBe(false);
    expect(matches('(Température) moyenne', 'Température moyenne')).toBe(true);
  });

  it('refuses what java.util.regex refuses, with the position', () => {
    expect(compileJavaRegex('(abc')).toMatchObject({ ok: false, message: expect.stringContaining('Unclosed group') });
    expect(compileJavaRegex('abc)')).toMatchObject({ ok: false, message: expect.stringContaining("Unmatched closing ')'"), index: 3 });
    expect(compileJavaRegex('*a')).toMatchObject({ ok: false, message: expect.stringContaining('Dangling meta character'), index: 0 });
    expect(compileJavaRegex('[a-z')).toMatchObject({ ok: false, message: expect.stringContaining('Unclosed character class') });
    expect(compileJavaRegex('[z-a]')).toMatchObject({ ok: false, message: expect.stringContaining('Illegal character range') });
    expect(compileJavaRegex('a{2,1}')).toMatchObject({ ok: false });
    expect(compileJavaRegex('\\y')).toMatchObject({ ok: false, message: expect.stringContaining('Illegal/unsupported escape') });
    expect(compileJavaRegex('\\p{NoSuchClass}')).toMatchObject({ ok: false, message: expect.stringContaining('Unknown character property') });
  });

  it('translates Java-only syntax', () => {
    expect(matches('\\_\\-\\@', '_-@')).toBe(true);
    expect(matches('\\Qa.b*\\E', 'a.b*')).toBe(true);
    expect(matches('\\Qa.b*\\E', 'axbbb')).toBe(false);
    expect(matches('\\p{Alpha}+\\p{Digit}', 'abc1')).toBe(true);
    expect(matches('\\p{javaLowerCase}+', 'éa')).toBe(true);
    expect(matches('\\p{L}+', 'Ωé')).toBe(true);
    expect(matches('\\p{IsLatin}+', 'abc')).toBe(true);
    expect(matches('[a-z&&[^aeiou]]+', 'bcd')).toBe(true);
    expect(matches('[a-z&&[^aeiou]]+', 'bad')).toBe(false);
    expect(matches('[a-c[x-z]]+', 'axz')).toBe(true);
    expect(matches('\\Aab\\z', 'ab')).toBe(true);
    expect(matches('a\\hb', 'a\tb')).toBe(true);
    expect(matches('(?i)abc', 'ABC')).toBe(true);
    expect(matches('x++y', 'xxy')).toBe(true);
    expect(matches('\\x41\\u0042\\0103', 'ABC')).toBe(true);
    expect(matches('a]b}', 'a]b}')).toBe(true);
    expect(matches('(a)(b)\\2\\1', 'abba')).toBe(true);
  });
});
