import { describe, expect, it } from 'vitest';
import type { AdditionalFileType } from '../configuration/model';
import { compileFieldFilters, overBudget, readFilesQuery, type FieldFilter } from './filesQuery';
import { regexBudget, SELECTION_REGEX_STEPS } from '../regex/searchBudget';

const NO_TEXTS = { title: {}, description: {} };
const protocols: AdditionalFileType = {
  name: 'protocols',
  i18n: NO_TEXTS,
  fields: [
    { name: 'title', i18n: NO_TEXTS, required: true, checker: { kind: 'string', pattern: null, multiplicity: 'ONE' } },
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
  ],
};

const matcher = (...filters: FieldFilter[]) => {
  const compiled = compileFieldFilters(protocols, filters);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problem));
  return compiled.matches;
};
const file = { title: 'Counting birds', issued: '15/03/2024', pages: '12' };

describe('the selection of additional files', () => {
  it('reads the original JSON, empty or absent meaning everything', () => {
    expect(readFilesQuery(undefined)).toEqual({
      ok: true,
      query: { uuids: [], fileNames: [], filetype: null, fieldFilters: {}, offset: 0, limit: null },
    });
    expect(readFilesQuery('undefined').ok).toBe(true);
    const read = readFilesQuery(
      JSON.stringify({
        uuids: ['a', 3],
        filetype: 'protocols',
        additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', filter: 'bird' }] } },
        locale: 'fr_FR',
      }),
    );
    expect(read).toEqual({
      ok: true,
      query: {
        uuids: ['a'],
        fileNames: [],
        filetype: 'protocols',
        fieldFilters: { protocols: [{ field: 'title', filter: 'bird' }] },
        offset: 0,
        limit: null,
      },
    });
    expect(readFilesQuery(JSON.stringify({ offset: 20, limit: 10 }))).toMatchObject({
      ok: true,
      query: { offset: 20, limit: 10 },
    });
  });

  it('refuses what is not a selection', () => {
    const filtered = (filter: object) =>
      JSON.stringify({ additionalFilesInfos: { protocols: { fieldFilters: [{ field: 'title', ...filter }] } } });
    const refused = [
      '{',
      '[]',
      '"x"',
      JSON.stringify({ additionalFilesInfos: { protocols: { fieldFilters: [{}] } } }),
      '{"offset":-1}',
      '{"limit":1.5}',
      '{"limit":100000}',
      filtered({ filter: 5 }),
      filtered({ filter: ['a'] }),
      filtered({ isRegExp: 'yes' }),
      filtered({ intervalValues: [] }),
      filtered({ intervalValues: { from: 5 } }),
      filtered({ format: {} }),
    ];
    for (const text of refused) {
      expect(readFilesQuery(text).ok, text).toBe(false);
    }
  });

  it('filters on texts, case ignored, or on a regular expression', () => {
    expect(matcher({ field: 'title', filter: 'BIRD' })(file)).toBe(true);
    expect(matcher({ field: 'title', filter: 'fish' })(file)).toBe(false);
    expect(matcher({ field: 'title', filter: '^Count\\w+ b', isRegExp: true })(file)).toBe(true);
    expect(matcher({ field: 'title', filter: 'fish|frog', isRegExp: true })(file)).toBe(false);
    expect(compileFieldFilters(protocols, [{ field: 'title', filter: '(', isRegExp: true }]).ok).toBe(false);
  });

  it('shares one budget of regular-expression steps among the files of a selection, then matches nothing', () => {
    const budget = regexBudget();
    const compiled = compileFieldFilters(protocols, [{ field: 'title', filter: '(.?){200}x', isRegExp: true }], budget);
    if (!compiled.ok) throw new Error('compiled');
    let files = 0;
    while (overBudget(budget) === null && files < 100_000) {
      expect(compiled.matches({ title: `Counting birds ${files}` })).toBe(false);
      files += 1;
    }
    // Each value costs thousands of steps: the budget is spent long before 100,000 files.
    expect(files).toBeLessThan(5_000);
    expect(overBudget(budget)).toEqual({
      code: 'BAD_FILES_QUERY',
      params: { reason: 'regexpBudget', field: 'title' },
    });
    // Once spent, even a value that would match is not tried.
    expect(compiled.matches({ title: 'x' })).toBe(false);
    // A cheap pattern over as many files stays within it.
    const cheap = regexBudget();
    const plain = compileFieldFilters(protocols, [{ field: 'title', filter: '^Count', isRegExp: true }], cheap);
    if (!plain.ok) throw new Error('compiled');
    for (let file = 0; file < 100_000; file += 1) plain.matches({ title: `Counting birds ${file}` });
    expect(overBudget(cheap)).toBeNull();
    expect(cheap.left).toBeGreaterThan(SELECTION_REGEX_STEPS / 2);
  });

  it('refuses a selection one of whose values alone takes more than its share, rather than calling it no match', () => {
    const budget = regexBudget();
    const compiled = compileFieldFilters(
      protocols,
      [{ field: 'title', filter: '(.?){1000}x', isRegExp: true }],
      budget,
    );
    if (!compiled.ok) throw new Error('compiled');
    expect(compiled.matches({ title: 'y'.repeat(5_000) })).toBe(false);
    expect(overBudget(budget)).toEqual({ code: 'BAD_FILES_QUERY', params: { reason: 'regexpBudget', field: 'title' } });
    expect(budget.left).toBeGreaterThan(0);
  });

  it('filters dates and numbers within bounds, inclusive', () => {
    expect(matcher({ field: 'issued', intervalValues: { from: '01/03/2024', to: '15/03/2024' } })(file)).toBe(true);
    expect(matcher({ field: 'issued', intervalValues: { from: '2024-03-16' } })(file)).toBe(false);
    expect(matcher({ field: 'issued', format: 'yyyy', intervalValues: { to: '2023' } })(file)).toBe(false);
    expect(matcher({ field: 'pages', intervalValues: { from: '10', to: '12' } })(file)).toBe(true);
    expect(matcher({ field: 'pages', intervalValues: { from: '13' } })(file)).toBe(false);
    expect(matcher({ field: 'pages', intervalValues: { from: '1' } })({ title: 'x' })).toBe(false);
    expect(compileFieldFilters(protocols, [{ field: 'title', intervalValues: { from: 'a' } }]).ok).toBe(false);
    // A bound on a day that does not exist is refused, in the field's pattern or as an ISO day.
    for (const from of ['31/02/2024', '2024-02-30'])
      expect(compileFieldFilters(protocols, [{ field: 'issued', intervalValues: { from } }]).ok, from).toBe(false);
  });

  it('never matches a filter on an unknown field', () => {
    expect(matcher({ field: 'author', filter: 'x' })(file)).toBe(false);
  });
});
