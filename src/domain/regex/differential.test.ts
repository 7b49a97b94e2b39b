/**
 * The engine against JavaScript's RegExp on patterns both read the same way (ASCII classes, groups, alternation,
 * greedy and lazy quantifiers, `\b`): the same texts match as a whole, and a search finds the same span. The DFA
 * and the Pike VM are held to each other on every pattern, those the DFA does not take included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaRegex, type CompiledRegex } from '.';
import { runPikeVm } from './pikeVm';
import { LazyDfa } from './lazyDfa';
import { parseJavaRegex } from './parse';
import { dfaProgram, wholeTextProgram } from './program';

const ALPHABET = ['a', 'b', 'c', '1', '-', ' ', '.', '\n', 'é'];

const atom = fc.oneof(
  fc.constantFrom('a', 'b', 'c', '1', '-', ' ', '\\.', '.', 'é'),
  fc.constantFrom('[abc]', '[^ab]', '[a-c]', '[a-c1-]', '[^\\s]', '\\d', '\\w', '\\W', '\\s', '\\D', '[.\\n]'),
);

const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '*?', '+?', '??', '{2}', '{0,2}', '{1,3}?', '{2,}');

/** A pattern, and whether it can match the empty text. */
interface Generated {
  source: string;
  empty: boolean;
}

const quantified = (body: Generated, q: string): Generated => ({
  source: body.source + q,
  empty: body.empty || /^(\*|\?|\{0)/.test(q),
});

/**
 * Patterns where only characters and groups that cannot match the empty text are repeated: JavaScript rejects an
 * iteration that matches nothing and tries the next alternative, Java (and this engine) take it, so such patterns
 * may find different spans.
 */
const generated: fc.Arbitrary<Generated> = fc.letrec<{ node: Generated }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(atom, quantifier).map(([a, q]) => quantified({ source: a, empty: false }, q)),
    fc.array(tie('node'), { minLength: 1, maxLength: 4 }).map((items) => ({
      source: items.map((item) => item.source).join(''),
      empty: items.every((item) => item.empty),
    })),
    fc
      .tuple(fc.array(tie('node'), { minLength: 2, maxLength: 3 }), fc.constantFrom('(', '(?:'), quantifier)
      .map(([options, open, q]) => {
        const group = {
          source: `${open}${options.map((option) => option.source).join('|')})`,
          empty: options.some((option) => option.empty),
        };
        return group.empty ? group : quantified(group, q);
      }),
    fc.tuple(tie('node'), fc.constantFrom('(', '(?:'), quantifier).map(([body, open, q]) => {
      const group = { source: `${open}${body.source})`, empty: body.empty };
      return group.empty ? group : quantified(group, q);
    }),
    fc.constantFrom({ source: '\\b', empty: true }, { source: '\\B', empty: true }),
  ),
})).node;

const pattern = generated.map((node) => node.source);

const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 12 }).map((characters) => characters.join(''));

function compiled(source: string): CompiledRegex {
  const result = compileJavaRegex(source);
  if (!result.ok) throw new Error(`${source}: ${result.message}`);
  return result.regex;
}

describe('differential: the engine and JavaScript RegExp', () => {
  it('match the same whole texts', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (source, texts) => {
        const regex = compiled(source);
        const native = new RegExp(`^(?:${source})$`, 'u');
        for (const input of texts)
          expect(regex.matches(input), `/${source}/ on ${JSON.stringify(input)}`).toBe(native.test(input));
      }),
      { numRuns: 1000, seed: 22 },
    );
  });

  it('find the same leftmost match', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        const found = compiled(source).find(input, 0);
        const native = new RegExp(source, 'u').exec(input);
        expect(found && [found[0], found[1]], `/${source}/ in ${JSON.stringify(input)}`).toEqual(
          native && [native.index, native.index + native[0].length],
        );
      }),
      { numRuns: 1000, seed: 23 },
    );
  });

  it('capture the same groups in patterns shaped like header and file-name patterns', () => {
    const uncaptured = pattern.map((source) => source.replace(/\((?!\?)/g, '(?:'));
    const part = fc.oneof(
      uncaptured.map((source) => `(${source})`),
      fc.constantFrom('_', '-', '.', 'a'),
    );
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.array(text, { minLength: 1, maxLength: 8 }),
        (parts, texts) => {
          const source = parts.join('');
          const native = new RegExp(`^(?:${source})$`, 'u');
          for (const input of texts)
            expect(compiled(source).matchGroups(input), `/${source}/ on ${JSON.stringify(input)}`).toEqual(
              native.exec(input)?.slice() ?? null,
            );
        },
      ),
      { numRuns: 600, seed: 25 },
    );
  });

  it('agree on the texts of a fixed set of checker-like patterns', () => {
    const sources = [
      '[A-Z]{3}[0-9]{3}',
      'FR-[A-Z]{3}',
      '[a-z]*',
      '.*',
      '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[a-z]{2,}',
      "\\p{L}+(?:[ '-]\\p{L}+)*",
      '\\d{4}-\\d{2}-\\d{2}',
      '(a+)+b',
      '(a|ab)*c',
    ];
    const texts = [
      'ABC123',
      'FR-ABC',
      'abc',
      '',
      'x.y@example-3.org',
      'Jean-Éric',
      "O'Brien",
      '2024-01-31',
      'aaab',
      'abababc',
      'a\nb',
      'ABC12',
      'é',
    ];
    for (const source of sources) {
      const native = new RegExp(`^(?:${source})$`, 'u');
      for (const input of texts)
        expect(compiled(source).matches(input), `/${source}/ on ${JSON.stringify(input)}`).toBe(native.test(input));
    }
  });
});

describe('differential: the lazy DFA and the Pike VM', () => {
  const javaOnly = fc.constantFrom('^', '$', '\\A', '\\z', '\\Z', '(?m)^', '(?m)$', '(?i)', '(?s)', '\\R', '\\G');

  it('give the same whole-text answers, with anchors and flags', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(pattern, javaOnly), { minLength: 1, maxLength: 4 }),
        fc.array(text, { minLength: 1, maxLength: 8 }),
        (parts, texts) => {
          const source = parts.join('');
          const parsed = parseJavaRegex(source);
          const whole = wholeTextProgram(parsed.node);
          const forDfa = dfaProgram(whole);
          if (forDfa === null) return;
          const dfa = new LazyDfa(forDfa);
          for (const input of [...texts, ...texts.map((t) => `${t}\n`), ...texts.map((t) => `${t}\r\n`)]) {
            const pike = runPikeVm(whole, (parsed.groupCount + 1) * 2, input, 0) !== null;
            expect(dfa.matches(input), `/${source}/ on ${JSON.stringify(input)}`).toBe(pike);
          }
        },
      ),
      { numRuns: 1000, seed: 24 },
    );
  });
});
