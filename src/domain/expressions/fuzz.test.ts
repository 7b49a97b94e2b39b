/**
 * Random token sequences: whatever the text, compiling returns a result (never throws) and evaluating throws
 * nothing but ExpressionError. (Mutated corpus expressions are fuzzed by the corpus suite, which reads them.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileExpression, ExpressionError } from './index';

const TOKENS = [
  // names and context
  'datum',
  'references',
  'referencesValues',
  'application',
  'it',
  'x',
  'y',
  'f',
  'datum.site',
  'references.sites',
  'OA_buildCompositeKey',
  'OA_escapeLabel',
  'OA_buildException',
  'Integer',
  'Math',
  'Float',
  'java.util.Locale.FRENCH',
  'GroovyException',
  'LocalDate.parse',
  'DateTimeFormatter.ofPattern',
  "'dd/MM/yyyy'",
  'Set.of',
  'Map.of',
  'e',
  'Exception',
  'DateTimeParseException',
  // keywords
  'import',
  'try',
  'catch',
  'finally',
  'def',
  'String',
  'Float',
  'int',
  'if',
  'else',
  'return',
  'throw',
  'true',
  'false',
  'null',
  'in',
  'as',
  'instanceof',
  'while',
  'for',
  'new',
  'class',
  'this',
  // literals
  '0',
  '1',
  '-1',
  '2147483647',
  '1.5',
  '0.1f',
  '1e3',
  "'a'",
  "''",
  '"b"',
  '"${x}"',
  '"$datum.site"',
  "'''t'''",
  '/\\d+/',
  '[',
  ']',
  '[:]',
  '{',
  '}',
  '(',
  ')',
  '->',
  ',',
  ';',
  '\n',
  ':',
  '?',
  '?:',
  '?.',
  '*.',
  '.',
  // operators
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '<=>',
  '&&',
  '||',
  '!',
  '=',
  '+=',
  '==~',
  '=~',
  // members
  '.find',
  '.findAll',
  '.collect',
  '.each',
  '.size()',
  '.trim()',
  '.split(",")',
  '.join("-")',
  '.sum()',
  '.sort()',
  '.getNaturalKey()',
  '.refValues',
  '.equals',
  '.toInteger()',
  '.padLeft(3)',
  '.multiply',
  '.get',
  '.keySet()',
  '.constructor',
  '.getClass()',
  '.__proto__',
  'Integer.parseInt',
  'Math.max',
  'Float.parseFloat',
];

const context = {
  datum: { site: 'Site A', n: '12', list: 'a,b' },
  references: {
    sites: Array.from({ length: 12 }, (_, k) => ({
      naturalKey: `s${k}`,
      hierarchicalKey: `h${k}`,
      refValues: { code: `c${k}` },
    })),
  },
  referencesValues: { sites: [{ code: 'c0' }] },
  application: { name: 'app', configuration: { i18n: { data: {} } } },
  groovyExceptions: { E: { fr: 'erreur' } },
};

describe('fuzzing with random token sequences', () => {
  it('never lets anything but ExpressionError escape, over 20,000 sequences', () => {
    let compiled = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 24 }),
        fc.constantFrom(' ', '', '\n'),
        (tokens, glue) => {
          const source = tokens.join(glue);
          const result = compileExpression(source);
          if (!result.ok) {
            for (const error of result.errors) {
              expect(error.line).toBeGreaterThanOrEqual(1);
              expect(error.column).toBeGreaterThanOrEqual(1);
              expect(typeof error.code).toBe('string');
            }
            return;
          }
          compiled++;
          try {
            result.expression.evaluate(context, {
              maxSteps: 20_000,
              maxStringLength: 100_000,
              maxCollectionSize: 10_000,
            });
          } catch (error) {
            if (!(error instanceof ExpressionError))
              throw new Error(`${String(error)} escaped for: ${source}`, { cause: error });
          }
        },
      ),
      { numRuns: 20_000, seed: 20_260_101 },
    );
    // Random tokens rarely form valid Groovy; make sure the evaluator was exercised too.
    expect(compiled).toBeGreaterThan(500);
  }, 120_000);
});
