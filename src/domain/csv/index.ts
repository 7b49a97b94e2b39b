/**
 * The CSV engine: validates a CSV file of one data entry of an application against its configuration and the rows
 * of the references it points to, while the file streams in, and gives the rows to store or the errors. The same
 * code runs in the browser worker (`src/workers/csv.worker.ts`, offline) and on the server, and gives byte-identical
 * results for the same inputs.
 *
 * Stored values (`CsvRow.values`, one entry per component, in configuration order):
 * - no checker: the cell text, trimmed (`''` when empty). Computed values: the expression's result as text (a list is
 *   joined with commas); `OA_withNaturalKeyComponents`: the composite key of the listed texts.
 * - `OA_date`: `date:<ISO local date-time>:<pattern>` (`date:1984-12-25T00:00:00:dd/MM/yyyy`).
 * - `OA_integer`, `OA_float`: a JSON number (a decimal comma is read as a point when the multiplicity is ONE); a float
 *   text a double cannot hold exactly is refused (`floatPrecisionLost`, `floatDigits.ts`), never stored changed.
 * - `OA_string`: the text. `OA_boolean`: true or false. `OA_groovyExpression` as a component checker: the text.
 * - `OA_reference`: the hierarchical key of the referenced row (looked up by hierarchical key, natural key, escaped
 *   text, or natural key without its leading `NULL_KEY__` parts).
 * - `OA_multiplicity: MANY`: a list of the above, from the text split on commas as Java does (an empty text gives
 *   `['']`, empty elements stay `''`).
 * - an empty value that is allowed: `''` (`['']` with MANY); a value that failed its check keeps its text (the row is
 *   then not given, only its errors).
 * - dynamic component: `{ <hierarchical key of the reference row>: <checked cell> }` for the columns the file has.
 * - pattern component: a list, one group per matched column in file order:
 *   `{ header: <column header>, value: <checked cell>, qualifiers: { <name>: <checked capture group> },
 *      adjacents: { <name>: <checked cell> } }`.
 * Expressions see `datum` with the texts before checking (basic, constant and computed texts; dynamic maps of texts;
 * pattern groups of texts), as the original gives them.
 *
 * Keys: `naturalKey` per §9.1 (dates written with their pattern, `/` as `_`); `hierarchicalKey` is
 * `<dataName>K<naturalKey>` after the key of the row's parent: the recursive parent row for a recursive entry (so a
 * sub-tree shares its prefix), otherwise the row an `OA_isParent` component points to.
 */
import { Validator } from './validator';
import type { CsvCheck, CsvReport, CsvRow, CsvValidationOptions, CsvValidator } from './types';

export type {
  CsvCheck,
  CsvDeposit,
  CsvErrorsReport,
  CsvLink,
  CsvReport,
  CsvRow,
  CsvValidationOptions,
  CsvValidator,
  DeviceKnowledge,
  ReferenceSource,
  StoredRow,
  StoredValue,
} from './types';
export { CSV_ERROR_CODES, isCsvErrorCode } from './errors';
export type { CsvError, CsvErrorCode } from './errors';
export type { CsvNote, CsvNoteCode } from './notes';
export { reportToCsv, reportToRows, type CsvReportRow, type TranslateCsvError } from './report';

export function createCsvValidator(options: CsvValidationOptions): CsvValidator {
  return new Validator(options);
}

/** The validator of a check received by a worker (browser or server). */
export function validatorOfCheck(
  check: CsvCheck,
  options: Pick<CsvValidationOptions, 'collectRows' | 'beforeRow'> = {},
): CsvValidator {
  return new Validator({
    model: check.model,
    dataName: check.dataName,
    fileName: check.fileName,
    maxErrors: check.maxErrors,
    deposit: check.deposit,
    device: check.device,
    references: { rows: (dataName) => check.references[dataName] ?? [] },
    ...options,
  });
}

/** Validates a whole text at once (tests, small files): the rows and the report. */
export function validateCsvText(options: CsvValidationOptions, text: string): { rows: CsvRow[]; report: CsvReport } {
  const validator = createCsvValidator(options);
  validator.push(text);
  const rows = validator.takeRows();
  const report = validator.finish();
  rows.push(...validator.takeRows());
  return { rows, report };
}
