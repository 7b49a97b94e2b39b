/** Java's syntax and matching rules, as checker, header, file-name and expression patterns use them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaRegex, runnableRegex, type CompiledRegex } from '.';
import { MAX_NESTING, MAX_PATTERN_LENGTH } from './parse';

function compiled(source: string): CompiledRegex {
  const result = compileJavaRegex(source);
  if (!result.ok) throw new Error(result.message);
  return result.regex;
}

const matches = (source: string, text: string) => compiled(source).matches(text);
const groups = (source: string, text: string) => compiled(source).matchGroups(text);
const find = (source: string, text: string) => {
  const slots = compiled(source).find(text, 0);
  return slots && text.slice(slots[0], slots[1]);
};

describe('Java regular expressions', () => {
  it('keeps the corpus patterns, their groups and what they capture', () => {
    expect(compiled('SWC(@?)_(.*)_(.*)').groupCount).toBe(3);
    expect(compiled('(.*)!(.*)!(.*)!(.*).csv').groupCount).toBe(4);
    expect(compiled('(?<site>[a-z]+)_(?:x|y)').groupCount).toBe(1);
    expect(matches('[A-Z]{3}[0-9]{3}', 'AAA001')).toBe(true);
    expect(matches('[A-Z]{3}[0-9]{3}', 'aaa001')).toBe(false);
    expect(matches('FR-[A-Z]{3}', 'FR-ABC')).toBe(true);
    expect(matches('[a-z]*', '')).toBe(true);
    expect(matches('.*', 'line\nbreak')).toBe(false);
    expect(groups('(Température) moyenne', 'Température moyenne')).toEqual(['Température moyenne', 'Température']);
    expect(groups('(.*)_S2_(.*)_(.*)', 'SWC_S2_10_mean_x')).toEqual(['SWC_S2_10_mean_x', 'SWC', '10_mean', 'x']);
    expect(groups('SWC(@?)_(.*)_(.*)', 'SWC_1_2')).toEqual(['SWC_1_2', '', '1', '2']);
    expect(groups('(.*)_(.*)_(.*).csv', 'site_01-01-2020_31-12-2020.csv')).toEqual([
      'site_01-01-2020_31-12-2020.csv',
      'site',
      '01-01-2020',
      '31-12-2020',
    ]);
    expect(groups('(a)|(b)', 'b')).toEqual(['b', undefined, 'b']);
  });

  it('refuses what java.util.regex refuses, with the position', () => {
    expect(compileJavaRegex('(abc')).toMatchObject({ ok: false, message: expect.stringContaining('Unclosed group') });
    expect(compileJavaRegex('abc)')).toMatchObject({
      ok: false,
      message: expect.stringContaining("Unmatched closing ')'"),
      index: 3,
    });
    expect(compileJavaRegex('*a')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Dangling meta character'),
      index: 0,
    });
    expect(compileJavaRegex('a**')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Dangling meta character'),
      index: 2,
    });
    expect(compileJavaRegex('[a-z')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unclosed character class'),
    });
    expect(compileJavaRegex('[z-a]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Illegal character range'),
    });
    expect(compileJavaRegex('a{2,1}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Illegal repetition range'),
    });
    expect(compileJavaRegex('a{x}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Illegal repetition'),
    });
    expect(compileJavaRegex('\\y')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Illegal/unsupported escape'),
    });
    expect(compileJavaRegex('\\p{NoSuchClass}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unknown character property'),
    });
    expect(compileJavaRegex('(?q)a')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unknown inline modifier'),
      index: 2,
    });
    expect(compileJavaRegex('(?<a>x)(?<a>y)')).toMatchObject({
      ok: false,
      message: expect.stringContaining('already defined'),
    });
  });

  it('refuses what needs backtracking, saying why and where', () => {
    const refused = (source: string, construct: string, index: number) =>
      expect(compileJavaRegex(source)).toMatchObject({
        ok: false,
        index,
        message: expect.stringMatching(new RegExp(`^${construct} needs a backtracking engine.* near index ${index}$`)),
      });
    refused('(a)(b)\\2\\1', 'A back-reference', 6);
    refused('(?<x>a)\\k<x>', 'A back-reference', 7);
    refused('a(?=b)', 'A look-ahead', 1);
    refused('a(?!b)', 'A look-ahead', 1);
    refused('(?<=a)b', 'A look-behind', 0);
    refused('(?<!a)b', 'A look-behind', 0);
    refused('x++y', 'A possessive quantifier', 2);
    refused('x{2}+', 'A possessive quantifier', 4);
    refused('(?>ab|a)c', 'An atomic group', 0);
  });

  it('refuses patterns too large or too deep to compile in bounded time and stack', () => {
    expect(compileJavaRegex('((a{100}){100}){100}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('too large'),
    });
    expect(matches('a{1000}', 'a'.repeat(1000))).toBe(true);
    expect(compileJavaRegex(`${'('.repeat(MAX_NESTING + 1)}a${')'.repeat(MAX_NESTING + 1)}`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('nested'),
      index: MAX_NESTING,
    });
    expect(compileJavaRegex('['.repeat(MAX_NESTING + 1))).toMatchObject({
      ok: false,
      message: expect.stringContaining('nested'),
    });
    expect(matches('(?:){999999999}a', 'a')).toBe(true);
    expect(compileJavaRegex('a'.repeat(MAX_PATTERN_LENGTH + 1))).toMatchObject({
      ok: false,
      message: expect.stringContaining('longer than'),
    });
    expect(compileJavaRegex(`[${'a'.repeat(MAX_PATTERN_LENGTH - 2)}]`).ok).toBe(true);
  });

  it('reads Java-only syntax', () => {
    expect(matches('\\_\\-\\@', '_-@')).toBe(true);
    expect(matches('\\Qa.b*\\E', 'a.b*')).toBe(true);
    expect(matches('\\Qa.b*\\E', 'axbbb')).toBe(false);
    expect(matches('\\Qab\\E+', 'abbb')).toBe(true);
    expect(matches('\\Qa.b', 'a.b')).toBe(true);
    expect(matches('[\\Q]-\\E]+', ']-]')).toBe(true);
    expect(matches('\\p{Alpha}+\\p{Digit}', 'abc1')).toBe(true);
    expect(matches('\\p{Alpha}', 'é')).toBe(false);
    expect(matches('\\p{Alpha}+\\P{Digit}', 'abc!')).toBe(true);
    expect(matches('\\p{javaLowerCase}+', 'éa')).toBe(true);
    expect(matches('\\p{L}+', 'Ωé')).toBe(true);
    expect(matches('\\pL\\p{Lu}\\p{IsLu}\\p{gc=Lu}', 'aBCD')).toBe(true);
    expect(matches('\\p{IsLatin}+', 'abc')).toBe(true);
    expect(matches('\\p{IsGreek}', 'a')).toBe(false);
    expect(matches('\\p{sc=Greek}\\p{IsAlphabetic}', 'Ωé')).toBe(true);
    expect(matches('[a-z&&[^aeiou]]+', 'bcd')).toBe(true);
    expect(matches('[a-z&&[^aeiou]]+', 'bad')).toBe(false);
    expect(matches('[a-z&&def]+', 'fed')).toBe(true);
    expect(matches('[^a-z&&[^x]]', 'x')).toBe(true);
    expect(matches('[a-c[x-z]]+', 'axz')).toBe(true);
    expect(matches('[]a]+', ']a')).toBe(true);
    expect(matches('[a-]+', 'a-')).toBe(true);
    expect(matches('\\Aab\\z', 'ab')).toBe(true);
    expect(matches('a\\hb', 'a\tb')).toBe(true);
    expect(matches('a\\Rb', 'a\r\nb')).toBe(true);
    expect(matches('\\x41\\u0042\\0103\\x{44}\\cA', 'ABCD\u0001')).toBe(true);
    expect(matches('\\uD83D\\uDE00', '😀')).toBe(true);
    expect(matches('a]b}', 'a]b}')).toBe(true);
    expect(matches('\\e\\a\\t\\f', '\u001b\u0007\t\f')).toBe(true);
  });

  it('works on code points: a character outside the BMP is one character', () => {
    expect(matches('.', '😀')).toBe(true);
    expect(matches('[😀-😂]{2}', '😁😀')).toBe(true);
    expect(matches('\\p{So}', '😀')).toBe(true);
    expect(groups('(.)(.)', 'é😀')).toEqual(['é😀', 'é', '😀']);
  });

  it('reads \\d, \\w, \\s and \\b as ASCII, and as Unicode under (?U)', () => {
    expect(matches('\\d\\w\\s', '1_ ')).toBe(true);
    expect(matches('\\d', '٣')).toBe(false);
    expect(matches('\\w', 'é')).toBe(false);
    expect(matches('\\s', '\u00a0')).toBe(false);
    expect(matches('(?U)\\d\\w\\s', '٣é\u00a0')).toBe(true);
    expect(matches('(?U)\\p{Alpha}', 'é')).toBe(true);
    expect(find('\\bcat\\b', 'concat cat')).toBe('cat');
    expect(matches('.*\\bé', 'aé')).toBe(true);
    expect(matches('(?U).*\\bé', 'aé')).toBe(false);
  });

  it('applies inline flags from where they are written to the end of their group', () => {
    expect(matches('(?i)abc', 'ABC')).toBe(true);
    expect(matches('a(?i)bc', 'aBC')).toBe(true);
    expect(matches('a(?i)bc', 'ABC')).toBe(false);
    expect(matches('(a(?i)b)c', 'aBc')).toBe(true);
    expect(matches('(a(?i)b)c', 'aBC')).toBe(false);
    expect(matches('(?i:a)b', 'Ab')).toBe(true);
    expect(matches('(?i:a)b', 'AB')).toBe(false);
    expect(matches('(?i)a(?-i)b', 'Ab')).toBe(true);
    expect(matches('(?i)a(?-i)b', 'AB')).toBe(false);
    expect(matches('(?i)[a-c]+', 'AbC')).toBe(true);
    expect(matches('(?i)[^a-c]', 'B')).toBe(false);
    expect(matches('(?x) a b  # a comment\n c', 'abc')).toBe(true);
    expect(matches('(?s).', '\n')).toBe(true);
    expect(matches('.', '\n')).toBe(false);
    expect(matches('.', '\u0085')).toBe(false);
    expect(matches('(?d).', '\r')).toBe(true);
  });

  it('ignores the case of ASCII letters only, unless UNICODE_CASE is on', () => {
    expect(matches('(?i)é', 'É')).toBe(false);
    expect(matches('(?iu)é', 'É')).toBe(true);
    expect(matches('(?iu)[à-ÿ]+', 'ÉÀ')).toBe(true);
    expect(matches('(?i)\\p{Lower}', 'A')).toBe(true);
  });

  it('follows Java for ^, $ and their multiline forms', () => {
    expect(matches('^abc$', 'abc')).toBe(true);
    expect(matches('abc$', 'abc\n')).toBe(false);
    expect(matches('abc$\n', 'abc\n')).toBe(true);
    expect(matches('abc\\Z\r\n', 'abc\r\n')).toBe(true);
    expect(matches('abc$\\r$\\n', 'abc\r\n')).toBe(false);
    expect(matches('(?m)a$\\n^b', 'a\nb')).toBe(true);
    expect(matches('(?m)a$\\r^\\n', 'a\r\n')).toBe(false);
    expect(matches('(?m)a\\n^', 'a\n')).toBe(false);
    expect(find('(?m)^b', 'a\nb')).toBe('b');
    expect(find('^b', 'a\nb')).toBe(null);
  });

  it('prefers the leftmost match, greedy or lazy as written', () => {
    expect(find('\\d+', 'ab 12 345')).toBe('12');
    expect(find('a.*b', 'a1b2b')).toBe('a1b2b');
    expect(find('a.*?b', 'a1b2b')).toBe('a1b');
    expect(find('a|ab', 'ab')).toBe('a');
    expect(find('x[0-9]+', 'ax1 x23')).toBe('x1');
    expect(find('x', 'abc')).toBe(null);
    expect(groups('(a*?)(a*)', 'aaa')).toEqual(['aaa', '', 'aaa']);
    expect(groups('(a|ab)(c|bcd)(d*)', 'abcd')).toEqual(['abcd', 'a', 'bcd', '']);
  });

  it('answers any pattern text with a compilation or a refusal, never an exception', () => {
    const piece = fc.constantFrom(
      ...'()[]{}|*+?.^$\\-&:=!<>,#0123456789aAbBcdDeEgGhHkNpPQrRsStuUvVwWxXzZ{}'.split(''),
      '\\p{',
      'constructor',
      '(?',
      '(?<',
      '\\Q',
      '\\E',
      'é',
      '😀',
      ' ',
      '\n',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 24 }),
        fc.array(fc.constantFrom('a', 'b', '1', '-', ' ', '\n', '\r', 'é', '😀'), { maxLength: 8 }),
        (pieces, characters) => {
          const result = compileJavaRegex(pieces.join(''));
          if (!result.ok) return;
          const text = characters.join('');
          result.regex.matches(text);
          result.regex.matchGroups(text);
          result.regex.find(text, 0);
        },
      ),
      { numRuns: 5000, seed: 26 },
    );
  });

  it('runs a stored pattern the engine now refuses as one that matches nothing', () => {
    const stored = runnableRegex({ source: '(a)\\1', groupCount: 1 });
    expect(stored.matches('aa')).toBe(false);
    expect(stored.matchGroups('aa')).toBe(null);
    expect(runnableRegex({ source: '(a)+', groupCount: 1 }).matches('aa')).toBe(true);
  });
});
