/**
 * The expression engine: a safe interpreter of the Groovy subset that OpenADOM configurations use
 * (OA_computation, OA_defaultValue, OA_groovyExpression). Compile once when the configuration is read, then
 * evaluate per row. Pure TypeScript: runs the same in a browser worker and on the server.
 */
import { type CompileOptions, compileProgram } from './compile';
import type { ExpressionContext } from './context';
import { type ExpressionSyntaxError, SyntaxFailure } from './errors';
import { evaluateScript } from './evaluate';
import { tokenize } from './lexer';
import { type EvaluationLimits, MAX_SOURCE_LENGTH } from './limits';
import { parseTokens } from './parser';

export interface CompiledExpression {
  readonly source: string;
  /** Names X used as references.X / referencesValues.X (lets the validator check OA_references). */
  readonly referencedReferences: readonly string[];
  /**
   * Whether the expression also reads `references` / `referencesValues` some other way (`references[name]`,
   * iterating, passing them on): which references it uses is then not known from its text.
   */
  readonly readsReferencesByOtherMeans: boolean;
  /** Names nothing defines, compiled as reads that fail when evaluated (`unknownNames: 'defer'`; else errors). */
  readonly unresolvedNames: readonly ExpressionSyntaxError[];
  /**
   * Evaluates on one context. The result is a Groovy value: null, boolean, string, number (an int32 number, or a
   * LongValue / FloatingValue / BigDecimal for other kinds; `groovyToString` gives its Groovy text), list (array),
   * map (Map), or a value of the context. Throws ExpressionError.
   */
  evaluate(context: ExpressionContext, limits?: Partial<EvaluationLimits>): unknown;
}

export type CompileResult =
  { ok: true; expression: CompiledExpression } | { ok: false; errors: ExpressionSyntaxError[] };

function failure(error: ExpressionSyntaxError): CompileResult {
  return { ok: false, errors: [error] };
}

export function compileExpression(source: string, options?: CompileOptions): CompileResult {
  if (typeof source !== 'string') {
    return failure({ code: 'unexpectedToken', message: 'An expression must be a text.', line: 1, column: 1 });
  }
  if (source.length > MAX_SOURCE_LENGTH) {
    return failure({
      code: 'expressionTooLong',
      message: `An expression may not be longer than ${MAX_SOURCE_LENGTH} characters.`,
      line: 1,
      column: 1,
    });
  }
  try {
    const compiled = compileProgram(parseTokens(tokenize(source)), options);
    if (Array.isArray(compiled)) return { ok: false, errors: compiled };
    const { script, referencedReferences, readsReferencesByOtherMeans, unresolvedNames } = compiled;
    return {
      ok: true,
      expression: {
        source,
        referencedReferences,
        readsReferencesByOtherMeans,
        unresolvedNames,
        evaluate: (context, limits) => evaluateScript(script, context, limits),
      },
    };
  } catch (error) {
    if (error instanceof SyntaxFailure) return failure(error.error);
    if (error instanceof RangeError) {
      return failure({ code: 'nestingTooDeep', message: 'The expression nests too deeply.', line: 1, column: 1 });
    }
    return failure({
      code: 'internalError',
      message: `Unexpected failure of the expression compiler: ${String(error)}`,
      line: 1,
      column: 1,
    });
  }
}

export type { CompileOptions } from './compile';
export type { ApplicationValue, ExpressionContext, LocaleMap, ReferenceRow } from './context';
export { ExpressionError } from './errors';
export type { EvaluationErrorCode, ExpressionSyntaxError, SyntaxErrorCode } from './errors';
export { DEFAULT_LIMITS, MAX_SOURCE_LENGTH } from './limits';
export type { EvaluationLimits } from './limits';
export { groovyToString } from './groovyValues';
export { BigDecimal, FloatingValue, LongValue } from './numbers';
export { compositeKey, escapeLabel, manyCompositeKey } from './naturalKeys';
