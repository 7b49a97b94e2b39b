/** A cell beginning with one of these is read as a formula by spreadsheets (or by their import of a CSV file). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number ("-12", "+3.5", "-1,5", "-2e-3") is never a formula: a minus sign must stay a minus sign. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The text of a cell as a CSV downloaded for a spreadsheet writes it: one that would start a formula
 * (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`) is prefixed with an apostrophe, which spreadsheets show as text.
 */
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
