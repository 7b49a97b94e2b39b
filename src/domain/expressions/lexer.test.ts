/** Tokens: where line breaks count, GString parts, slashy strings and number suffixes. */
import { describe, expect, it } from 'vitest';
import { tokenize } from './lexer';

const kinds = (source: string) =>
  tokenize(source).map((t) => (t.kind === 'newline' ? '⏎' : t.kind === 'eof' ? '∎' : t.text));

describe('lexer', () => {
  it('keeps line breaks between statements but not inside () or []', () => {
    expect(kinds('a\nb')).toEqual(['a', '⏎', 'b', '∎']);
    expect(kinds('f(a,\n b)')).toEqual(['f', '(', 'a', ',', 'b', ')', '∎']);
    expect(kinds('[1,\n2]')).toEqual(['[', '1', ',', '2', ']', '∎']);
    expect(kinds('{ a\n b }')).toEqual(['{', 'a', '⏎', 'b', '}', '∎']);
    expect(kinds('a\r\n\r\nb')).toEqual(['a', '⏎', 'b', '∎']);
  });

  it('splits GStrings into text and token lists', () => {
    const [token] = tokenize('"x${a + 1}y$b.c"');
    expect(token.kind).toBe('gstring');
    if (token.kind !== 'gstring') return;
    expect(token.strings).toEqual(['x', 'y', '']);
    expect(token.parts.map((part) => part.map((t) => t.text))).toEqual([
      ['a', '+', '1', ''],
      ['b', '.', 'c', ''],
    ]);
  });

  it('tells a slashy string from a division by what comes before the slash', () => {
    const slashy = tokenize('x.split(/\\s+/)')[4];
    expect(slashy).toMatchObject({ kind: 'string', value: '\\s+' });
    expect(kinds('a / b / 2')).toEqual(['a', '/', 'b', '/', '2', '∎']);
  });

  it('reads number forms and suffixes', () => {
    const numbers = tokenize('12 3.5 1e-3 7L 2.5f 0xFF 1_000G').filter((t) => t.kind === 'number');
    expect(numbers.map((t) => t.kind === 'number' && [t.literal.text, t.literal.form, t.literal.suffix])).toEqual([
      ['12', 'integer', ''],
      ['3.5', 'decimal', ''],
      ['1e-3', 'decimal', ''],
      ['7', 'integer', 'l'],
      ['2.5', 'decimal', 'f'],
      ['0xFF', 'integer', ''],
      ['1000', 'integer', 'g'],
    ]);
    expect(kinds('1.toString()')).toEqual(['1', '.', 'toString', '(', ')', '∎']);
  });

  it('locates tokens by line and column', () => {
    const tokens = tokenize("a\n  'b'");
    expect(tokens[2].pos).toEqual({ line: 2, column: 3 });
  });
});
