import { describe, expect, it } from 'vitest';
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldForSearch, matchesSearch, searchWords } from './searchFold';

describe('the folding of searched texts', () => {
  it('ignores case and the accents of Latin letters', () => {
    expect(foldForSearch('Lac Léman')).toBe('lac leman');
    expect(foldForSearch('ÉBOULIS Œuvre Ça')).toBe('eboulis ouvre ca');
  });

  it('reads ASCII punctuation and French apostrophes as spaces, and keeps other scripts', () => {
    expect(foldForSearch("Lac d'Anterne")).toBe('lac d anterne');
    expect(foldForSearch('Lac d’Anterne')).toBe('lac d anterne');
    expect(foldForSearch('a_b%c\\d"e')).toBe('a b c d e');
    expect(foldForSearch('Ζεύς 東京')).toBe('Ζεύς 東京');
  });

  it('maps one character to one, so that SQL translate() folds alike', () => {
    expect([...SEARCH_FOLD_FROM].length).toBe([...SEARCH_FOLD_TO].length);
    expect(new Set([...SEARCH_FOLD_FROM]).size).toBe([...SEARCH_FOLD_FROM].length);
  });

  it('cuts a search into at most eight folded words', () => {
    expect(searchWords('  Lac   LÉM ')).toEqual(['lac', 'lem']);
    expect(searchWords('%_\'"\\')).toEqual([]);
    expect(searchWords('a b c d e f g h i j')).toHaveLength(8);
    expect(searchWords('x'.repeat(500))[0]).toHaveLength(64);
  });

  it('matches texts whose words begin with every word searched', () => {
    expect(matchesSearch('Station Lac Léman', searchWords('lem'))).toBe(true);
    expect(matchesSearch('Station Lac Léman', searchWords('lac lé'))).toBe(true);
    expect(matchesSearch('Station Lac Léman', searchWords('man'))).toBe(false);
  });
});
