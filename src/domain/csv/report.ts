/**
 * The downloadable error report: one line per error (line, column, value, message) so that people fix their file in
 * a spreadsheet. Messages are not written here: the caller passes a function that translates an error (the UI uses
 * the Lingui catalogue of `src/lib/messages/csvErrors.ts`, the server its request's language).
 */
import type { CsvError } from './errors';
import type { CsvErrorsReport } from './types';

export type TranslateCsvError = (error: CsvError) => string;

export interface CsvReportRow {
  /** The file's line, or '' for an error about the whole file. */
  line: number | '';
  column: string;
  value: string;
  message: string;
}

export function reportToRows(report: CsvErrorsReport, translate: TranslateCsvError): CsvReportRow[] {
  return report.errors.map((error) => ({
    line: error.lineNumber >= 0 ? error.lineNumber : '',
    column: error.column ?? '',
    value: error.value ?? '',
    message: translate(error),
  }));
}

export interface ReportCsvOptions {
  /** Field separator; `;` by default (what spreadsheets expect in French). */
  separator?: string;
  /** Titles of the four columns, translated by the caller. */
  headers?: { line: string; column: string; value: string; message: string };
  /** The last line's message when the report holds only the first errors, e.g. "1,234 more errors are not listed". */
  truncated?: (hidden: number) => string;
  /** Starts the text with a byte-order mark so that spreadsheets read it as UTF-8. */
  byteOrderMark?: boolean;
}

function quote(text: string, separator: string): string {
  return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function reportToCsv(
  report: CsvErrorsReport,
  translate: TranslateCsvError,
  options: ReportCsvOptions = {},
): string {
  const separator = options.separator ?? ';';
  const headers = options.headers ?? { line: 'line', column: 'column', value: 'value', message: 'message' };
  const lines = [[headers.line, headers.column, headers.value, headers.message]];
  for (const row of reportToRows(report, translate)) lines.push([String(row.line), row.column, row.value, row.message]);
  if (report.truncated && options.truncated)
    lines.push(['', '', '', options.truncated(report.errorCount - report.errors.length)]);
  const text = lines.map((cells) => cells.map((cell) => quote(cell, separator)).join(separator)).join('\r\n') + '\r\n';
  return options.byteOrderMark ? `\uFEFF${text}` : text;
}
