import { describe, expect, it } from 'vitest';
import { reportToCsv, reportToRows } from './report';
import type { CsvReport } from './types';

const report: CsvReport = {
  rowCount: 3,
  errorCount: 5,
  truncated: true,
  errors: [
    { lineNumber: -1, code: 'missingHeaderLine', params: { headerLine: 3 } },
    {
      lineNumber: 2,
      code: 'invalidIntegerWithComponent',
      params: { component: 'slots', value: '3;5' },
      column: 'slots',
      value: '3;5',
    },
    { lineNumber: 4, code: 'invalidFormat', params: { reason: 'textAfterQuote', columnNumber: 1 }, column: 'na"me' },
  ],
};
const translate = (error: { code: string; params: Record<string, unknown> }) =>
  `${error.code}: ${JSON.stringify(error.params)}`;

describe('the downloadable report', () => {
  it('gives one row per error, the file-wide ones without a line', () => {
    expect(reportToRows(report, (error) => error.code)).toEqual([
      { line: '', column: '', value: '', message: 'missingHeaderLine' },
      { line: 2, column: 'slots', value: '3;5', message: 'invalidIntegerWithComponent' },
      { line: 4, column: 'na"me', value: '', message: 'invalidFormat' },
    ]);
  });

  it('writes a CSV a spreadsheet reads: quoted where needed, CRLF, the titles and the note on hidden errors', () => {
    const text = reportToCsv(report, (error) => (error.code === 'invalidFormat' ? 'text "after" quote' : error.code), {
      headers: { line: 'ligne', column: 'colonne', value: 'valeur', message: 'message' },
      truncated: (hidden) => `${hidden} autres erreurs`,
      byteOrderMark: true,
    });
    expect(text).toBe(
      '\uFEFFligne;colonne;valeur;message\r\n' +
        ';;;missingHeaderLine\r\n' +
        '2;slots;"3;5";invalidIntegerWithComponent\r\n' +
        '4;"na""me";;"text ""after"" quote"\r\n' +
        ';;;2 autres erreurs\r\n',
    );
    expect(reportToCsv({ ...report, truncated: false, errors: [] }, translate, { separator: ',' })).toBe(
      'line,column,value,message\r\n',
    );
  });
});
