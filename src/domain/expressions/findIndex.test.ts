/** The indexed `find`/`findAll` must always agree with running the closure element by element. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompiledExpression, compileExpression, type ExpressionContext } from './index';

function compiled(source: string, indexedLookups: boolean): CompiledExpression {
  const result = compileExpression(source, { indexedLookups });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.expression;
}

function outcome(expression: CompiledExpression, context: ExpressionContext): unknown {
  try {
    return { value: expression.evaluate(context) };
  } catch (error) {
    return { error: (error as { code: string }).code };
  }
}

const FORMS = [
  'references.rows.find { it.refValues.f == datum.key }',
  'references.rows.find { it.refValues.f.equals(datum.key) }',
  'references.rows.findAll { datum.key == it.refValues.get("f") }',
  'references.rows.find { row -> row.refValues["f"] == "${datum.key}" }',
  'references.rows.find { it.refValues.f.equals("${datum.key}") }',
  'references.rows.findAll { it.getNaturalKey().equals(datum.key) }',
  'references.rows.find { it.refValues?.f == datum.key }',
];

const fieldValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'c', 'é', '') },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) },
);

const row = fc.record({
  naturalKey: fc.constantFrom('a', 'b', 'c'),
  hierarchicalKey: fc.string(),
  refValues: fieldValue.map((f) => (f === undefined ? {} : { f })),
});

describe('indexed look-ups', () => {
  it('give the same result or the same error as the plain closure', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMS),
        fc.array(row, { minLength: 0, maxLength: 40 }),
        fc.array(fc.oneof(fc.constantFrom('a', 'b', 'z', ''), fc.constant(null), fc.integer({ min: 0, max: 2 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (form, rows, keys) => {
          const indexed = compiled(form, true);
          const plain = compiled(form, false);
          for (const key of keys) {
            const context = { datum: { key }, references: { rows } };
            expect(outcome(indexed, context)).toEqual(outcome(plain, context));
          }
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });

  it('answer from the index once the list has been searched twice', () => {
    const rows = Array.from({ length: 1000 }, (_, k) => ({
      naturalKey: `k${k}`,
      hierarchicalKey: `h${k}`,
      refValues: { f: `v${k}` },
    }));
    const expression = compiled('references.rows.find { it.refValues.f == datum.key }.hierarchicalKey', true);
    const budget = { maxSteps: 200 };
    // The first search runs the closure on every row, which is far over a 200-step budget …
    expect(() => expression.evaluate({ datum: { key: 'v999' }, references: { rows } }, budget)).toThrowError(/steps/);
    // … the second builds the index (its cost counted once, under the default budget) …
    expect(expression.evaluate({ datum: { key: 'v500' }, references: { rows } })).toBe('h500');
    // … and from then on a look-up costs a few steps.
    expect(expression.evaluate({ datum: { key: 'v999' }, references: { rows } }, budget)).toBe('h999');
  });

  it('are not used for closures that do more than compare one field', () => {
    const rows = Array.from({ length: 20 }, (_, k) => ({
      naturalKey: `k${k}`,
      hierarchicalKey: '',
      refValues: { f: `${k % 3}` },
    }));
    const context = { references: { rows } };
    const source = 'def n = 0; references.rows.find { n++ ; false }; n';
    expect(compileExpression(source).ok).toBe(false);
    const counting = 'def seen = []; references.rows.findAll { seen += [it]; it.refValues.f == "1" }; seen.size()';
    expect(compiled(counting, true).evaluate(context)).toBe(20);
    expect(compiled(counting, true).evaluate(context)).toBe(20);
  });
});
