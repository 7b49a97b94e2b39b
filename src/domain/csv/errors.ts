/**
 * Upload-time error codes of the CSV engine (format reference §8–§11, §10.3, spec part 2 §5, api.md §6.3). Each
 * error is a value `{lineNumber, code, params}`; `lineNumber` is the row number of the file (the header is usually
 * line 1), -1 when no line applies. Codes and params follow the original's fixtures where they say (`component`,
 * `value`, `pattern`, `refType`, `duplicateKey`…); messages live in `src/lib/messages/csvErrors.ts`.
 */

export const CSV_ERROR_CODES = [
  // File layout and header line
  'missingHeaderLine',
  'emptyHeader',
  'duplicatedHeaders',
  'invalidHeaders',
  'missingMandatoryColumns',
  'unexpectedHeaderColumn',
  'headerColumnPatternNotMatching',
  'invalidFormat',
  'separatorInValue',
  'unexpectedTokenCount',
  // Values (§10.3)
  'requiredValueWithComponent',
  'invalidDateWithComponent',
  'badIntervalDateWithComponent',
  'invalidIntegerWithComponent',
  'badIntervalIntegerWithComponent',
  'invalidFloatWithComponent',
  'floatPrecisionLost',
  'badIntervalFloatWithComponent',
  'invalidBooleanWithComponent',
  'patternNotMatchedWithComponent',
  'invalidReferenceWithComponent',
  // Expressions (§11, §12)
  'checkerExpressionReturnedFalse',
  'expressionEvaluationError',
  'groovyException',
  // Keys and whole-file checks (§8, §9)
  'invalidNaturalKey',
  'duplicatedLineInReference',
  'duplicatedLineInDatatype',
  // Per line, as Terrain reported a missing recursive parent before issue 25: kept for the reports stored then.
  'missingParentLineInRecursiveReference',
  'missingrecursiveParentReferenceWithComponent',
  // Deposits (§14, issue 8)
  'timerangeoutofinterval',
  'badauthorizationscopeforrepository',
] as const;

export type CsvErrorCode = (typeof CSV_ERROR_CODES)[number];

const KNOWN = new Set<string>(CSV_ERROR_CODES);

export function isCsvErrorCode(code: string): code is CsvErrorCode {
  return KNOWN.has(code);
}

/** One problem of an uploaded file. `column` is the CSV header of the value's column and `value` the cell, when they apply. */
export interface CsvError {
  lineNumber: number;
  code: string;
  params: Record<string, unknown>;
  column?: string;
  value?: string;
}

/**
 * Keeps the first `max` errors and counts them all, each once: an error equal to one already met (same line,
 * code, params and column; `Est,Est` in a MANY cell) is not a new one. The worker and the server then give the
 * same de-duplicated list (spec part 2 §8).
 */
export class ErrorCollector {
  readonly kept: CsvError[] = [];
  count = 0;
  /** Keys of the errors kept, and of the errors met on the latest line (duplicates come from one line). */
  private readonly keptKeys = new Set<string>();
  private readonly lineKeys = new Set<string>();
  private line = Number.NaN;

  constructor(private readonly max: number) {}

  add(error: CsvError): void {
    const key = JSON.stringify([error.lineNumber, error.code, error.params, error.column ?? null]);
    if (error.lineNumber !== this.line) {
      this.line = error.lineNumber;
      this.lineKeys.clear();
    }
    if (this.lineKeys.has(key) || this.keptKeys.has(key)) return;
    this.lineKeys.add(key);
    this.count += 1;
    if (this.kept.length < this.max) {
      this.kept.push(error);
      this.keptKeys.add(key);
    }
  }
}
