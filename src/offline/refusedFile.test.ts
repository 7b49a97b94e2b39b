import { describe, expect, it } from 'vitest';
import { refusedFileReport } from './refusedFile';

const lineError = { lineNumber: 3, code: 'invalidReferenceWithComponent', params: { value: 'nowhere' } };

describe('refusedFileReport', () => {
  it('reads the total and the cut from the refusal params', () => {
    const report = refusedFileReport({
      status: 400,
      code: 'INVALID_CSV',
      params: { errorCount: 120, truncated: true },
      lineErrors: [lineError],
    });
    expect(report).toEqual({ errors: [lineError], errorCount: 120, truncated: true });
  });

  it('counts the listed errors when the params do not say', () => {
    expect(refusedFileReport({ status: 400, code: 'INVALID_CSV', params: [], lineErrors: [lineError] })).toEqual({
      errors: [lineError],
      errorCount: 1,
      truncated: false,
    });
  });

  it('gives nothing for a refusal without line errors', () => {
    expect(refusedFileReport({ status: 409, code: 'APPLICATION_EXISTS', params: {} })).toBeUndefined();
    expect(refusedFileReport(undefined)).toBeUndefined();
  });
});
