import { describe, expect, it } from 'vitest';
import { regExpFilterIn } from './regExpFilters';

describe('regExpFilterIn', () => {
  it('names the component of the first filter asking for a regular expression, as true or as text', () => {
    const query = (filters: unknown) => JSON.stringify({ componentFilters: filters });
    expect(
      regExpFilterIn(
        query([
          { componentKey: 'a', filters: ['x'] },
          { componentKey: 'b', isRegExp: true },
        ]),
      ),
    ).toBe('b');
    expect(regExpFilterIn(query([{ componentKey: 'c', isRegExp: 'true' }]))).toBe('c');
    expect(regExpFilterIn(query([{ isRegExp: true }]))).toBe('');
  });

  it('finds none in queries without one, and leaves malformed queries to the query reader', () => {
    for (const text of [
      undefined,
      '',
      '{nope',
      'null',
      '[]',
      '{"componentFilters": 3}',
      JSON.stringify({ componentFilters: [null, 4, { componentKey: 'a', isRegExp: false }] }),
    ])
      expect(regExpFilterIn(text), String(text)).toBeUndefined();
  });
});
