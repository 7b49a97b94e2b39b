import { describe, expect, it } from 'vitest';
import { spreadsheetSafe } from './spreadsheetSafe';

describe('spreadsheetSafe', () => {
  it('prefixes what a spreadsheet would run as a formula', () => {
    for (const text of [
      '=1+1',
      '=HYPERLINK("http://x","y")',
      '+cmd|/c calc',
      '-1+2',
      '@SUM(A1)',
      '\tTAB',
      '\r=1',
      '-',
      '+',
      '=',
    ]) {
      expect(spreadsheetSafe(text)).toBe(`'${text}`);
    }
  });

  it('leaves numbers, dates and ordinary text as they are', () => {
    for (const text of [
      '-12',
      '+3.5',
      '-1,5',
      '-2e-3',
      '-.5',
      '12',
      'a=b',
      'Lac Léman',
      '',
      '2020-01-01',
      "'quoted",
      ' =space first',
    ]) {
      expect(spreadsheetSafe(text)).toBe(text);
    }
  });
});
