/** Shortcuts for the engine's tests: compile-and-run, and the errors of a refused expression. */
import {
  type CompileOptions,
  compileExpression,
  type ExpressionContext,
  type ExpressionSyntaxError,
  groovyToString,
} from './index';
import type { EvaluationLimits } from './limits';

/** Compiles (failing the test on compile errors) and evaluates. */
export function run(
  source: string,
  context: ExpressionContext = {},
  limits?: Partial<EvaluationLimits>,
  options?: CompileOptions,
): unknown {
  const compiled = compileExpression(source, options);
  if (!compiled.ok) throw new Error(`did not compile: ${JSON.stringify(compiled.errors)}`);
  return compiled.expression.evaluate(context, limits);
}

/** The Groovy text of the result, which is how most expectations read best (`0.5`, `[a:1]`, `1.0E10`). */
export function text(source: string, context: ExpressionContext = {}): string {
  return groovyToString(run(source, context));
}

export function compileErrors(source: string): ExpressionSyntaxError[] {
  const compiled = compileExpression(source);
  if (compiled.ok) throw new Error(`compiled but should not have: ${source}`);
  return compiled.errors;
}

/** The error an evaluation throws (failing the test if it throws none). */
export function failure(
  source: string,
  context: ExpressionContext = {},
  limits?: Partial<EvaluationLimits>,
): { code: string; line?: number; column?: number; params: Record<string, unknown>; name: string } {
  try {
    run(source, context, limits);
  } catch (error) {
    return error as { code: string; line?: number; column?: number; params: Record<string, unknown>; name: string };
  }
  throw new Error(`evaluated without error: ${source}`);
}
