import { describe, expect, it } from 'vitest';
import { MAX_SORTED_COMPONENTS, readRowQuery, withOriginalPrecedence } from './rowQuery';

describe('row queries', () => {
  it('read paging, keys, filters and order', () => {
    const result = readRowQuery(
      JSON.stringify({
        offset: 20,
        limit: 10,
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
    expect(readRowQuery('{"limit": 1000}').ok).toBe(true);
    expect(readRowQuery('{"limit": 1001}')).toEqual({
      ok: false,
      problem: { code: 'BAD_ROW_QUERY', params: { reason: 'limitTooLarge', max: 1000 } },
    });
    expect(readRowQuery('{"componentFilters": [{}]}')).toMatchObject({
      ok: false,
      problem: { code: 'MISSING_COMPONENT_KEY_COMPONENT' },
    });
    expect(readRowQuery('{"componentFilters": [{"componentKey": "a"}]}')).toMatchObject({
      ok: false,
      problem: { code: 'FILTER_MISSING_FILTER_OR_INTERVAL' },
    });
  });

  it('sort by each component once, and by so many components at most', () => {
    const sorts = (keys: string[]) =>
      readRowQuery(JSON.stringify({ componentOrderBy: keys.map((componentKey) => ({ componentKey, order: 'DESC' })) }));
    const repeated = sorts(Array.from({ length: 5_000 }, (_, i) => `c${i % 3}`));
    expect(repeated).toMatchObject({ ok: true, query: { componentOrderBy: [{ componentKey: 'c0' }, {}, {}] } });
    const most = Array.from({ length: MAX_SORTED_COMPONENTS }, (_, i) => `c${i}`);
    expect(sorts(most).ok).toBe(true);
    expect(sorts([...most, 'one-more'])).toEqual({
      ok: false,
      problem: { code: 'BAD_ROW_QUERY', params: { reason: 'tooManySorts' } },
    });
  });

  it("read intervals as scripts write them: numbers, and the original's intervalsValues holding one", () => {
    const filter = (value: object) =>
      readRowQuery(JSON.stringify({ componentFilters: [{ componentKey: 'day', ...value }] }));
    expect(filter({ intervalValues: { from: 2, to: 10.5 } })).toMatchObject({
      ok: true,
      query: { componentFilters: [{ intervalValues: { from: '2', to: '10.5' } }] },
    });
    expect(filter({ intervalsValues: [{ from: '01/01/1984', to: '04/01/1984' }] })).toMatchObject({
      ok: true,
      query: { componentFilters: [{ intervalValues: { from: '01/01/1984', to: '04/01/1984' } }] },
    });
    const refused = { ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'badInterval' } } };
    expect(
      filter({
        intervalsValues: [
          { from: 'a', to: 'b' },
          { from: 'c', to: 'd' },
        ],
      }),
    ).toMatchObject({ ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'severalIntervals' } } });
    expect(filter({ intervalValues: { from: true, to: 'b' } })).toMatchObject(refused);
    expect(filter({ intervalValues: ['a', 'b'] })).toMatchObject(refused);
    expect(filter({ intervalValues: 'a..b' })).toMatchObject(refused);
  });

  it('selects rows by the first selector given, as the original, and a filter’s interval before its values', () => {
    const read = (value: object) => {
      const result = readRowQuery(JSON.stringify(value));
      return result.ok ? { ok: true, query: withOriginalPrecedence(result.query) } : result;
    };
    // Read as sent: a deletion refuses filters beside keys rather than ignore them.
    expect(readRowQuery(JSON.stringify({ naturalKeys: ['a'], rowIds: ['b'] }))).toEqual({
      ok: true,
      query: { naturalKeys: ['a'], rowIds: ['b'] },
    });
    expect(
      read({ naturalKeys: ['a'], rowIds: ['b'], componentFilters: [{ componentKey: 'c', filters: ['x'] }] }),
    ).toEqual({
      ok: true,
      query: { naturalKeys: ['a'] },
    });
    expect(read({ rowIds: ['b'], componentFilters: [{ componentKey: 'c', filters: ['x'] }] })).toEqual({
      ok: true,
      query: { rowIds: ['b'] },
    });
    expect(
      read({ componentFilters: [{ componentKey: 'c', filters: ['x'], intervalValues: { from: '1', to: '2' } }] }),
    ).toEqual({
      ok: true,
      query: { componentFilters: [{ componentKey: 'c', intervalValues: { from: '1', to: '2' } }] },
    });
    expect(read({ componentFilters: [{ componentKey: 'c', filters: ['x'], intervalValues: {} }] })).toEqual({
      ok: true,
      query: { componentFilters: [{ componentKey: 'c', filters: ['x'] }] },
    });
  });

  it('reads sort orders in any case and refuses others; reads locales as scripts write them', () => {
    const order = (value: unknown) =>
      readRowQuery(JSON.stringify({ componentOrderBy: [{ componentKey: 'c', order: value }] }));
    expect(order('desc')).toEqual({ ok: true, query: { componentOrderBy: [{ componentKey: 'c', order: 'DESC' }] } });
    expect(order(undefined)).toEqual({ ok: true, query: { componentOrderBy: [{ componentKey: 'c', order: 'ASC' }] } });
    expect(order('down')).toEqual({ ok: false, problem: { code: 'BAD_ROW_QUERY', params: { reason: 'badOrder' } } });
    expect(order(1)).toMatchObject({ ok: false });
    for (const locale of ['fr_FR', 'fr-FR', 'FR', 'fr'])
      expect(readRowQuery(JSON.stringify({ outPut: { locale } }))).toEqual({
        ok: true,
        query: { outPut: { locale: 'fr' } },
      });
  });
});
