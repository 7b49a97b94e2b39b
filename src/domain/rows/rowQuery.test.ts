import { describe, expect, it } from 'vitest';
import { MAX_SORTED_COMPONENTS, intervalState, readRowQuery } from './rowQuery';

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

  it('apply an interval only when both ends are given and from comes before to', () => {
    expect(intervalState(true, '2', '10')).toBe('usable');
    // Numbers compare as numbers, not as texts ('10' < '2' as text).
    expect(intervalState(true, '10', '2')).toBe('reversed');
    expect(intervalState(true, '5', '5')).toBe('reversed');
    expect(intervalState(true, 'x', '5')).toBe('notNumbers');
    expect(intervalState(false, '2024-06-01', '2024-07-01')).toBe('usable');
    expect(intervalState(false, '2024-07-01', '2024-06-01')).toBe('reversed');
    expect(intervalState(false, '2024-07-01', '')).toBe('incomplete');
    expect(intervalState(false, undefined, '')).toBe('empty');
  });
});
