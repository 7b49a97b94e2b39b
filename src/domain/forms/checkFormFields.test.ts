import { describe, expect, it } from 'vitest';
import type { FormField } from '../configuration/model';
import { checkFormFields } from './checkFormFields';

const NO_TEXTS = { title: {}, description: {} };

const text = (name: string, required: boolean, pattern?: string): FormField => ({
  name,
  i18n: NO_TEXTS,
  required,
  checker: { kind: 'string', pattern: pattern ? { source: pattern, groupCount: 0 } : null, multiplicity: 'ONE' },
});
const fields: FormField[] = [
  text('organization', true),
  text('code', false, '[a-z]+'),
  {
    name: 'startDate',
    i18n: NO_TEXTS,
    required: true,
    checker: { kind: 'date', pattern: 'dd/MM/yyyy', min: null, max: null, duration: null, multiplicity: 'ONE' },
  },
  {
    name: 'people',
    i18n: NO_TEXTS,
    required: false,
    checker: { kind: 'integer', min: 1, max: 10, multiplicity: 'ONE' },
  },
  {
    name: 'site',
    i18n: NO_TEXTS,
    required: false,
    checker: { kind: 'reference', reference: 'sites', isParent: false, isRecursive: false, multiplicity: 'ONE' },
  },
];

describe('checkFormFields', () => {
  it('keeps the trimmed values of a filled form', () => {
    expect(
      checkFormFields(fields, { organization: ' INRAE ', code: 'abc', startDate: '01/02/2024', people: '3' }),
    ).toEqual({
      ok: true,
      values: { organization: 'INRAE', code: 'abc', startDate: '01/02/2024', people: '3' },
    });
  });

  it('names each refused field with the code the CSV engine gives', () => {
    const result = checkFormFields(fields, {
      organization: '  ',
      code: 'ABC',
      startDate: '2024-02-01',
      people: '11',
      extra: 'x',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.field, p.code])).toEqual([
      ['extra', 'unknownFormField'],
      ['organization', 'requiredValueWithComponent'],
      ['code', 'patternNotMatchedWithComponent'],
      ['startDate', 'invalidDateWithComponent'],
      ['people', 'badIntervalIntegerWithComponent'],
    ]);
  });

  it('refuses a day that does not exist (rights-request and additional-file forms alike)', () => {
    const refused = checkFormFields(fields, { organization: 'x', startDate: '31/02/2024' });
    expect(refused.ok ? [] : refused.problems).toEqual([
      expect.objectContaining({
        field: 'startDate',
        code: 'invalidDateWithComponent',
        params: expect.objectContaining({ value: '31/02/2024', pattern: 'dd/MM/yyyy' }),
      }),
    ]);
  });

  it('looks references up when their rows are given, and leaves them to the server otherwise', () => {
    const rows = [{ naturalKey: 'lac_blanc', hierarchicalKey: 'alps.lac_blanc', values: {} }];
    const base = { organization: 'x', startDate: '01/02/2024' };
    expect(checkFormFields(fields, { ...base, site: 'nowhere' }).ok).toBe(true);
    expect(checkFormFields(fields, { ...base, site: 'lac_blanc' }, () => rows).ok).toBe(true);
    const refused = checkFormFields(fields, { ...base, site: 'nowhere' }, () => rows);
    expect(refused.ok ? [] : refused.problems.map((p) => p.code)).toEqual(['invalidReferenceWithComponent']);
  });
});
