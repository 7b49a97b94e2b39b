import { describe, expect, it } from 'vitest';
import { modelOf, validate } from './testKit';

const lenient = (allowUnexpectedColumns: boolean) =>
  modelOf(`OA_version: 2.0.1
OA_application: {OA_name: essais, OA_version: 1.0.0}
OA_data:
  samples:
    OA_allowUnexpectedColumns: ${allowUnexpectedColumns}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      unit: null
`);

describe('repeated headers', () => {
  it('ignores an undeclared column repeated under OA_allowUnexpectedColumns, as the original does', () => {
    const header = ['code', 'unit', ...Array.from({ length: 16 }, () => 'qc')].join(';');
    const line = ['A', 'cm', ...Array.from({ length: 16 }, (_, index) => String(index))].join(';');
    const result = validate('samples', `${header}\n${line}\n`, { model: lenient(true) });
    expect(result.report.errors).toEqual([]);
    expect(result.rows.map((row) => row.values)).toEqual([{ code: 'A', unit: 'cm' }]);
  });

  it('still refuses a declared column repeated under OA_allowUnexpectedColumns', () => {
    const result = validate('samples', 'code;unit;qc;unit;qc\nA;cm;1;mm;2\n', { model: lenient(true) });
    expect(result.report.errors).toEqual([
      { lineNumber: 1, code: 'duplicatedHeaders', params: { duplicatedHeaders: ['unit'] } },
    ]);
  });

  it('refuses any repeated column without OA_allowUnexpectedColumns', () => {
    const result = validate('samples', 'code;unit;qc;qc\nA;cm;1;2\n', { model: lenient(false) });
    expect(result.report.errors.map((error) => [error.code, error.params.duplicatedHeaders])).toEqual([
      ['duplicatedHeaders', ['qc']],
    ]);
  });
});
