import { describe, expect, it } from 'vitest';
import { readRowQuery } from './rowQuery';

describe('row queries', () => {
  it('read paging, keys, filters and order', () => {
    const result = readRowQuery(
      JSON.stringify({
        offset: 20,
        limit: 10,
        naturalKeys: ['a'],
        componentFilters: [
          { componentKey: 'altitude', intervalValues: { from: '100', to: '500' } },
          { componentKey: 'site', filters: ['oir'] },
        ],
        componentOrderBy: [{ componentKey: 'label', order: 'DESC' }],
        outPut: { locale: 'en' },
      }),
    );
    expect(result).toEqual({
      ok: true,
      query: {
        offset: 20,
        limit: 10,
        naturalKeys: ['a'],
        componentFilters: [
          { componentKey: 'altitude', intervalValues: { from: '100', to: '500' } },
          { componentKey: 'site', filters: ['oir'] },
        ],
        componentOrderBy: [{ componentKey: 'label', order: 'DESC' }],
        outPut: { locale: 'en' },
      },
    });
  });

  it('treat an absent or "undefined" query as empty', () => {
    expect(readRowQuery(undefined)).toEqual({ ok: true, query: {} });
    expect(readRowQuery('undefined')).toEqual({ ok: true, query: {} });
  });

  it('name what is wrong', () => {
    expect(readRowQuery('{').ok).toBe(false);
    expect(readRowQuery('{"limit": -1}')).toMatchObject({ ok: false, problem: { code: 'BAD_ROW_QUERY' } });
    expect(readRowQuery('{"componentFilters": [{}]}')).toMatchObject({
      ok: false,
      problem: { code: 'MISSING_COMPONENT_KEY_COMPONENT' },
    });
    expect(readRowQuery('{"componentFilters": [{"componentKey": "a"}]}')).toMatchObject({
      ok: false,
      problem: { code: 'FILTER_MISSING_FILTER_OR_INTERVAL' },
    });
  });
});
