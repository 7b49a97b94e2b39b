import { describe, expect, it } from 'vitest';
import type { FormField } from '../configuration/model';
import { FORM_REGEX_STEPS } from '../regex/searchBudget';
import {
  ANSWERED_PROBLEMS,
  MAX_FORM_VALUE_LENGTH,
  SHOWN_VALUE_LENGTH,
  answeredProblems,
  checkFormFields,
} from './checkFormFields';

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

describe('the budget of a form’s patterns', () => {
  // A pattern whose DFA overflows its cache on a/b text: about a thousand steps a character (the audit's attack).
  const HOSTILE = '[ab]*a[ab]{1500}';
  let seed = 7;
  const bit = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 16) & 1;
  };
  const ab = (length: number) => Array.from({ length }, () => (bit() ? 'a' : 'b')).join('');
  const patterned = (count: number, pattern: string) =>
    Array.from({ length: count }, (_, index) => text(`f${index}`, true, pattern));
  const filled = (count: number, value: () => string) =>
    Object.fromEntries(Array.from({ length: count }, (_, index) => [`f${index}`, value()]));

  it('refuses the audit’s form (300 fields of 2,000 characters) at its first field, running no other', () => {
    const form = patterned(300, HOSTILE);
    const input = filled(300, () => ab(2000));
    for (const round of ['cold', 'warm']) {
      const result = checkFormFields(form, input);
      expect(result.ok, round).toBe(false);
      if (result.ok) return;
      // One field spent it; the fields after are not run, so nothing else is reported.
      expect(result.problems, round).toEqual([
        { field: 'f0', code: 'formCheckBudget', params: { target: 'f0', steps: FORM_REGEX_STEPS } },
      ]);
    }
  });

  it('counts the steps of every field together', () => {
    // Each value takes less than its own share; together they pass the form's budget.
    const form = patterned(40, HOSTILE);
    const input = filled(40, () => ab(400));
    const result = checkFormFields(form, input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    // The fields before were checked (their values do not match), the one that ran out is the last named.
    const spent = result.problems.at(-1)!;
    expect(spent.code).toBe('formCheckBudget');
    const at = Number(spent.field.slice(1));
    expect(at).toBeGreaterThan(0);
    expect(result.problems.map((p) => p.code)).toEqual([
      ...Array<string>(at).fill('patternNotMatchedWithComponent'),
      'formCheckBudget',
    ]);
    // The same verdict again, once the pattern's DFA is warm (the device and the server keep their own).
    expect(checkFormFields(form, input)).toEqual(result);
  });

  it('leaves honest forms far below it', () => {
    const form = patterned(50, '[a-z][a-z0-9_]{0,254}|[A-Za-z ,.;:-]+');
    const input = filled(50, () => 'a'.repeat(4_000));
    expect(checkFormFields(form, input).ok).toBe(true);
  });

  it(`refuses a value longer than ${MAX_FORM_VALUE_LENGTH} characters before its checker reads it`, () => {
    const result = checkFormFields([text('note', true, HOSTILE)], { note: ab(MAX_FORM_VALUE_LENGTH + 1) });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          field: 'note',
          code: 'formValueTooLong',
          params: { target: 'note', max: MAX_FORM_VALUE_LENGTH, length: MAX_FORM_VALUE_LENGTH + 1 },
        },
      ],
    });
  });

  it('repeats the beginning of a refused value only, and a refusal the first problems with their count', () => {
    const form = patterned(300, '[a-z]{1,10}');
    const result = checkFormFields(
      form,
      filled(300, () => 'A'.repeat(2_000)),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(300);
    for (const problem of result.problems) {
      expect(problem.code).toBe('patternNotMatchedWithComponent');
      expect(problem.params.value).toBe(`${'A'.repeat(SHOWN_VALUE_LENGTH)}…`);
    }
    const answered = answeredProblems(result.problems);
    expect(answered.problems).toHaveLength(ANSWERED_PROBLEMS);
    expect(answered.problemCount).toBe(300);
    expect(JSON.stringify(answered).length).toBeLessThan(5_000);
    const unknown = checkFormFields([], { ['x'.repeat(2_000)]: 'y' });
    expect(unknown.ok ? [] : unknown.problems.map((p) => p.field)).toEqual([`${'x'.repeat(SHOWN_VALUE_LENGTH)}…`]);
  });
});
