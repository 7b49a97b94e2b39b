import { describe, expect, it } from 'vitest';
import type { FormField } from '@/domain/configuration/model';
import { filtersOf } from './filters';

const NO_TEXTS = { title: {}, description: {} };
const fields: FormField[] = [
  { name: 'title', i18n: NO_TEXTS, required: true, checker: null },
  {
    name: 'issued',
    i18n: NO_TEXTS,
    required: false,
    checker: { kind: 'date', pattern: 'dd/MM/yyyy', min: null, max: null, duration: null, multiplicity: 'ONE' },
  },
  {
    name: 'pages',
    i18n: NO_TEXTS,
    required: false,
    checker: { kind: 'integer', min: null, max: null, multiplicity: 'ONE' },
  },
];

describe('the filters of the file list', () => {
  it('filter texts on what they contain and dates and numbers on bounds, leaving empty fields out', () => {
    expect(
      filtersOf(fields, { title: { text: ' bird ' }, issued: { from: '01/01/2024', to: ' ' }, pages: { to: '12' } }),
    ).toEqual([
      { field: 'title', filter: 'bird' },
      { field: 'issued', intervalValues: { from: '01/01/2024', to: null } },
      { field: 'pages', intervalValues: { from: null, to: '12' } },
    ]);
    expect(filtersOf(fields, { title: { text: '  ' } })).toEqual([]);
  });
});
