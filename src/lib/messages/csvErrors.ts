import type { MessageDescriptor } from '@lingui/core';
import type { CsvError, CsvErrorCode } from '../../domain/csv/errors';

/**
 * Texts of the CSV upload error codes (`csvError.<code>`), English as the source language; French in
 * `locales/fr/errors.po`. Plain descriptors marked with i18n comments, so that `lingui extract` collects them and
 * they work without the macro in the worker, the server and tests. Give `i18n._` the values of
 * {@link csvErrorValues}: lists joined by commas, plus the derived names the texts use (`rule`, `target`,
 * `exceptionMessage`).
 */
export const csvErrorMessages: Record<CsvErrorCode, MessageDescriptor> = {
  missingHeaderLine: /*i18n*/ {
    id: 'csvError.missingHeaderLine',
    message: 'The file has no header line: it ends before line {headerLine}.',
  },
  emptyHeader: /*i18n*/ {
    id: 'csvError.emptyHeader',
    message: 'Column {columnNumber} of the header line (line {headerLine}) has no name.',
  },
  duplicatedHeaders: /*i18n*/ {
    id: 'csvError.duplicatedHeaders',
    message: 'These columns appear more than once in the header line: {duplicatedHeaders}.',
  },
  invalidHeaders: /*i18n*/ {
    id: 'csvError.invalidHeaders',
    message: 'Unexpected column(s): {unknownComponents}. Expected columns: {expectedColumns}.',
  },
  missingMandatoryColumns: /*i18n*/ {
    id: 'csvError.missingMandatoryColumns',
    message: 'Mandatory column(s) missing: {missingMandatoryColumns}.',
  },
  unexpectedHeaderColumn: /*i18n*/ {
    id: 'csvError.unexpectedHeaderColumn',
    message: 'Column {columnNumber} should be {expectedHeaderColumn} ({component}), not “{actualHeaderColumn}”.',
  },
  headerColumnPatternNotMatching: /*i18n*/ {
    id: 'csvError.headerColumnPatternNotMatching',
    message:
      'The column {actualHeaderColumn} starts with {headerPrefix}, but no row of {refType} has that name ({component}).',
  },
  invalidFormat: /*i18n*/ {
    id: 'csvError.invalidFormat',
    message:
      '{reason, select, unterminatedQuote {A quoted value that starts in column {columnNumber} is never closed.} textAfterQuote {Column {columnNumber} has text after its closing quote.} notUtf8 {Column {columnNumber} is not UTF-8 text: the file was probably saved as Latin-1 or Windows-1252. Save it again as “CSV UTF-8”.} utf16 {The file is saved as UTF-16 (“Unicode text”): save it again as “CSV UTF-8”.} fieldTooLong {Column {columnNumber} holds more than {max} characters.} other {Column {columnNumber} is not well written.}}',
  },
  separatorInValue: /*i18n*/ {
    id: 'csvError.separatorInValue',
    message: 'The value of column {columnNumber} contains the separator {separator}, which values may not hold.',
  },
  unexpectedTokenCount: /*i18n*/ {
    id: 'csvError.unexpectedTokenCount',
    message: 'This line has {actualTokenCount} values but the header line has {expectedTokenCount} columns.',
  },
  requiredValueWithComponent: /*i18n*/ {
    id: 'csvError.requiredValueWithComponent',
    message: 'A value is required for {component}.',
  },
  invalidDateWithComponent: /*i18n*/ {
    id: 'csvError.invalidDateWithComponent',
    message: '“{value}” is not a date written {pattern} ({component}).',
  },
  badIntervalDateWithComponent: /*i18n*/ {
    id: 'csvError.badIntervalDateWithComponent',
    message:
      '{type, select, LOWER_THAN_MIN {The date {value} is before {bound} ({component}).} other {The date {value} is after {bound} ({component}).}}',
  },
  invalidIntegerWithComponent: /*i18n*/ {
    id: 'csvError.invalidIntegerWithComponent',
    message: '“{value}” is not a whole number ({component}).',
  },
  badIntervalIntegerWithComponent: /*i18n*/ {
    id: 'csvError.badIntervalIntegerWithComponent',
    message:
      '{type, select, LOWER_THAN_MIN {{value} is below the minimum {bound} ({component}).} other {{value} is above the maximum {bound} ({component}).}}',
  },
  invalidFloatWithComponent: /*i18n*/ {
    id: 'csvError.invalidFloatWithComponent',
    message: '“{value}” is not a number ({component}).',
  },
  floatPrecisionLost: /*i18n*/ {
    id: 'csvError.floatPrecisionLost',
    message:
      '“{value}” would be stored as {stored}: a number keeps about 15 significant digits ({component}). Round the value, or ask the application’s managers for a text column.',
  },
  badIntervalFloatWithComponent: /*i18n*/ {
    id: 'csvError.badIntervalFloatWithComponent',
    message:
      '{type, select, LOWER_THAN_MIN {{value} is below the minimum {bound} ({component}).} other {{value} is above the maximum {bound} ({component}).}}',
  },
  invalidBooleanWithComponent: /*i18n*/ {
    id: 'csvError.invalidBooleanWithComponent',
    message: '“{value}” is neither true nor false ({component}).',
  },
  patternNotMatchedWithComponent: /*i18n*/ {
    id: 'csvError.patternNotMatchedWithComponent',
    message: '“{value}” does not match the pattern {pattern} ({component}).',
  },
  invalidReferenceWithComponent: /*i18n*/ {
    id: 'csvError.invalidReferenceWithComponent',
    message: '“{value}” is not a value of {refType} ({component}). Values include: {referenceValues}.',
  },
  checkerExpressionReturnedFalse: /*i18n*/ {
    id: 'csvError.checkerExpressionReturnedFalse',
    message: 'The check {rule} refused this line.',
  },
  expressionEvaluationError: /*i18n*/ {
    id: 'csvError.expressionEvaluationError',
    message: 'The expression of {target} failed on this line: {message}',
  },
  groovyException: /*i18n*/ { id: 'csvError.groovyException', message: '{exceptionMessage}' },
  invalidNaturalKey: /*i18n*/ {
    id: 'csvError.invalidNaturalKey',
    message:
      '{problem, select, empty {The key of this line ({components}) is empty.} tooLong {The key value “{value}” is too long: at most 256 characters once written as a key.} pathTooLong {The key of this line, with those of its parents, is too long: at most {max} characters once written as a key (“{value}”).} invisible {The key value “{value}” holds an invisible character ({character}): remove it.} other {The key value “{value}” cannot be written as a key.}}',
  },
  duplicatedLineInReference: /*i18n*/ {
    id: 'csvError.duplicatedLineInReference',
    message:
      '{lineCount, plural, =0 {Lines {otherLines} have the same key {duplicateKey}.} other {# lines have the same key {duplicateKey}: {otherLines}.}}',
  },
  duplicatedLineInDatatype: /*i18n*/ {
    id: 'csvError.duplicatedLineInDatatype',
    message:
      '{lineCount, plural, =0 {Lines {otherLines} have the same key {duplicateKey}.} other {# lines have the same key {duplicateKey}: {otherLines}.}}',
  },
  missingParentLineInRecursiveReference: /*i18n*/ {
    id: 'csvError.missingParentLineInRecursiveReference',
    message: 'The parent “{value}” of this line is neither in the file nor in {reference} ({component}).',
  },
  missingrecursiveParentReferenceWithComponent: /*i18n*/ {
    id: 'csvError.missingrecursiveParentReferenceWithComponent',
    message: 'These parents named in {component} are neither in the file nor in {refType}: {values}.',
  },
  timerangeoutofinterval: /*i18n*/ {
    id: 'csvError.timerangeoutofinterval',
    message: 'The date {value} is outside the period of the deposit ({from} – {to}).',
  },
  badauthorizationscopeforrepository: /*i18n*/ {
    id: 'csvError.badauthorizationscopeforrepository',
    message: 'The value {value} of {component} is outside the scope of the deposit ({expected}).',
  },
};

function display(value: unknown): unknown {
  if (Array.isArray(value))
    return value
      .map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)))
      .join(', ');
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

function isParamsObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The configuration's text with its `${name}` placeholders filled from the exception's params (others left as written). */
function fillExceptionParams(text: string, exceptionParams: Record<string, unknown>): string {
  return text.replace(/\$\{(\w+)\}/g, (placeholder, name: string) =>
    Object.prototype.hasOwnProperty.call(exceptionParams, name) ? String(display(exceptionParams[name])) : placeholder,
  );
}

/** An exception the configuration gives no text for: its code, then its params, so the line still says what was wrong. */
function untranslatedException(code: unknown, exceptionParams: Record<string, unknown>): string {
  const entries = Object.entries(exceptionParams).map(([name, value]) => `${name}: ${String(display(value))}`);
  return entries.length === 0 ? String(code) : `${String(code)} (${entries.join(', ')})`;
}

/** A deposit's bound (an ISO local date-time at midnight) as a date people read, in their language. */
function periodBound(value: unknown, locale: string): unknown {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?:[T ]00:00(?::00)?)?$/.exec(value) : null;
  if (!match) return display(value);
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/**
 * The values a message interpolates: params with lists joined (a deposit's `from` and `to` as dates in `locale`),
 * the line, column and value of the error, and the names some texts use: `rule` (the validation, or the component),
 * `target` (component or validation of an expression) and `exceptionMessage` (the configuration's own text of an
 * `OA_buildException` or a thrown GroovyException, in `locale` when it has one, otherwise in French or the first
 * language it has, with its `${name}` placeholders filled from the exception's params; without any text, the
 * exception's code followed by its params: `BAD_VALUE (value: 12)`).
 */
export function csvErrorValues(
  error: Pick<CsvError, 'params'> & Partial<Pick<CsvError, 'lineNumber' | 'column' | 'value'>>,
  locale = 'en',
  entryTitle: (name: string) => string = (name) => name,
): Record<string, unknown> {
  const values: Record<string, unknown> = {
    line: error.lineNumber,
    column: error.column ?? '',
    cellValue: error.value ?? '',
  };
  for (const [key, value] of Object.entries(error.params)) values[key] = display(value);
  // A depositor knows a reference by its title, as the pages name it, not by the configuration's name.
  for (const key of ['refType', 'reference'])
    if (typeof error.params[key] === 'string') values[key] = entryTitle(error.params[key] as string);
  // Errors kept before duplicated lines were counted have no `lineCount`: their text names the lines only.
  if (typeof error.params.lineCount !== 'number') values.lineCount = 0;
  // The period of a deposit (timerangeoutofinterval) is read as dates, the way the deposits page shows periods.
  if ('from' in error.params) values.from = periodBound(error.params.from, locale);
  if ('to' in error.params) values.to = periodBound(error.params.to, locale);
  const params = error.params as { validation?: unknown; component?: unknown; exception?: unknown; messages?: unknown };
  values.rule = display(params.validation ?? params.component ?? '');
  values.target = values.rule;
  const messages =
    params.messages && typeof params.messages === 'object' ? (params.messages as Record<string, unknown>) : {};
  const text = messages[locale] ?? messages.fr ?? Object.values(messages)[0];
  const exceptionParams = isParamsObject(error.params.exceptionParams) ? error.params.exceptionParams : {};
  values.exceptionMessage =
    typeof text === 'string' && text !== ''
      ? fillExceptionParams(text, exceptionParams)
      : untranslatedException(display(params.exception ?? ''), exceptionParams);
  return values;
}
