import { describe, expect, it } from 'vitest';
import { ReferenceIndex } from './references';

const row = (naturalKey: string, parent = '') => ({
  naturalKey,
  hierarchicalKey: `${parent}sitesK${naturalKey}`,
  values: {},
});

describe('the texts that name a reference row', () => {
  it('are its natural key without leading empty parts, its natural key and its hierarchical key, each read back as that row', () => {
    const index = new ReferenceIndex('sites', [row('NULL_KEY__oir', 'typesKbassin.'), row('oir__p1')]);
    expect(index.spellings('typesKbassin.sitesKNULL_KEY__oir')).toEqual([
      'oir',
      'NULL_KEY__oir',
      'typesKbassin.sitesKNULL_KEY__oir',
    ]);
    expect(index.spellings('sitesKoir__p1')).toEqual(['oir__p1', 'sitesKoir__p1']);
  });

  it('leave out a short text that names another row, and know nothing of rows they do not hold', () => {
    const index = new ReferenceIndex('sites', [row('NULL_KEY__oir'), row('oir')]);
    expect(index.spellings('sitesKNULL_KEY__oir')).toEqual(['NULL_KEY__oir', 'sitesKNULL_KEY__oir']);
    expect(index.spellings('sitesKnowhere')).toEqual([]);
  });
});
