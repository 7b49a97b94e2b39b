import { describe, expect, it } from 'vitest';
import type { KeptRow } from '@/domain/rows/filterRows';
import { scopeChoices, scopeMatches } from './scopeMatches';

const row = (hierarchicalKey: string, naturalKey: string, label: string): KeptRow => ({
  id: hierarchicalKey,
  naturalKey,
  hierarchicalKey,
  values: { label },
});
const display = (r: KeptRow) => String(r.values.label);

describe('scopeChoices', () => {
  it('orders rows as a tree and names their parents by label, else by code', () => {
    const labels = new Map([['placesKalps', 'Alpes']]);
    const choices = scopeChoices(
      [
        row('placesKalps.placesKmont_blanc', 'mont_blanc', 'Mont Blanc'),
        row('placesKalps', 'alps', 'Alpes'),
        row('projectsKNULL_KEY__pyr.sitesKlac', 'lac', 'Lac'),
      ],
      display,
      (key) => labels.get(key),
    );
    expect(choices.map((c) => [c.label, c.parents])).toEqual([
      ['Alpes', []],
      ['Mont Blanc', ['Alpes']],
      ['Lac', ['pyr']],
    ]);
  });

  it('gives the code without its empty leading parts', () => {
    const [choice] = scopeChoices([row('sitesKNULL_KEY__oir', 'NULL_KEY__oir', 'Oir')], display, () => undefined);
    expect(choice.code).toBe('oir');
  });
});

describe('scopeMatches', () => {
  const sites = Array.from({ length: 2_000 }, (_, i) => {
    const code = `s${String(i + 1).padStart(4, '0')}`;
    return row(`projectsKalps.sitesK${code}`, code, i === 1_499 ? 'Lac Léman' : `Site ${code}`);
  });
  const choices = scopeChoices(sites, display, (key) => (key === 'projectsKalps' ? 'Alpes' : undefined));

  it('offers the first rows and counts them all when nothing is typed', () => {
    const { matches, total } = scopeMatches(choices, '  ');
    expect(matches).toHaveLength(8);
    expect(matches[0].code).toBe('s0001');
    expect(total).toBe(2_000);
  });

  it('finds a label by the beginnings of its words, case and accents ignored', () => {
    expect(scopeMatches(choices, 'lac le').matches.map((m) => m.label)).toEqual(['Lac Léman']);
    expect(scopeMatches(choices, 'LEMAN').total).toBe(1);
    // Not the middle of a word.
    expect(scopeMatches(choices, 'man').total).toBe(0);
  });

  it('finds a row by its code and by its parents’ label', () => {
    expect(scopeMatches(choices, 's1500').matches.map((m) => m.label)).toEqual(['Lac Léman']);
    expect(scopeMatches(choices, 'alpes lac').matches.map((m) => m.code)).toEqual(['s1500']);
  });

  it('bounds the matches, says how many there are, and puts labels beginning with the text first', () => {
    const { matches, total } = scopeMatches(choices, 's1', 5);
    expect(total).toBe(1_000);
    expect(matches.map((m) => m.code)).toEqual(['s1000', 's1001', 's1002', 's1003', 's1004']);
    const labelFirst = scopeMatches(
      scopeChoices([row('sitesKa', 'lac_b', 'Berge'), row('sitesKb', 'b', 'Lac')], display, () => undefined),
      'lac',
    );
    expect(labelFirst.matches.map((m) => m.label)).toEqual(['Lac', 'Berge']);
  });
});
