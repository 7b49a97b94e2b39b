/**
 * Errors of the expression engine. Compile problems are values (`ExpressionSyntaxError`) because a configuration
 * validator wants all of them at once; evaluation problems are thrown as `ExpressionError` because they abort the
 * evaluation of one row. Nothing else ever leaves the engine: a JavaScript error reaching a caller is a bug.
 */

/** Codes of the problems found before evaluation (they make a configuration fail with BAD_GROOVY_EXPRESSION). */
export type SyntaxErrorCode =
  | 'expressionTooLong'
  | 'nestingTooDeep'
  | 'unexpectedCharacter'
  | 'unterminatedString'
  | 'unterminatedComment'
  | 'malformedNumber'
  | 'invalidEscape'
  | 'unexpectedToken'
  | 'unexpectedEnd'
  | 'unsupportedConstruct'
  | 'forbiddenName'
  | 'unknownVariable'
  | 'unknownMethod'
  | 'unknownStaticCall'
  | 'unknownType'
  | 'duplicateVariable'
  | 'invalidAssignment'
  | 'invalidRegex'
  | 'badArguments'
  | 'internalError';

export interface ExpressionSyntaxError {
  code: SyntaxErrorCode | string;
  /** English text for logs and developers; the UI translates `code` with `construct`. */
  message: string;
  /** 1-based position in the expression text. */
  line: number;
  column: number;
  /** The refused construct or name, e.g. `while loop`, `getClass`, `System.exit`. */
  construct?: string;
}

/** Codes of the problems raised while evaluating. */
export type EvaluationErrorCode =
  | 'expressionTooLong'
  | 'recursionTooDeep'
  | 'valueTooLarge'
  | 'nullDereference'
  | 'noSuchProperty'
  | 'noSuchMethod'
  | 'badArguments'
  | 'cannotCast'
  | 'numberFormat'
  | 'dateTimeParse'
  | 'divisionByZero'
  | 'cannotCompare'
  | 'indexOutOfBounds'
  | 'emptyCollection'
  | 'unknownVariable'
  | 'unsupportedMapKey'
  | 'invalidLabel'
  | 'invalidRegex'
  | 'groovyException'
  | 'internalError';

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
  readonly code: EvaluationErrorCode;
  /** Values the message interpolates; always JSON-friendly. */
  readonly params: Record<string, unknown>;
  /** 1-based position of the construct that failed, when known. */
  readonly line?: number;
  readonly column?: number;

  constructor(
    code: EvaluationErrorCode,
    message: string,
    params: Record<string, unknown> = {},
    position?: { line: number; column: number },
  ) {
    super(message);
    this.code = code;
    this.params = params;
    this.line = position?.line;
    this.column = position?.column;
  }

  /** The same error, located at `position` unless it already knows where it happened. */
  locatedAt(position: { line: number; column: number }): ExpressionError {
    if (this.line !== undefined) return this;
    return new ExpressionError(this.code, this.message, this.params, position);
  }
}

/** Thrown by the lexer and parser to stop at the first syntax error; turned into a value by `compileExpression`. */
export class SyntaxFailure extends Error {
  constructor(readonly error: ExpressionSyntaxError) {
    super(error.message);
  }
}

export function syntaxFailure(
  code: SyntaxErrorCode,
  message: string,
  position: { line: number; column: number },
  construct?: string,
): SyntaxFailure {
  return new SyntaxFailure({ code, message, line: position.line, column: position.column, construct });
}
