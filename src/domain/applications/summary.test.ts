import { describe, expect, it } from 'vitest';
import { entryTitleOf } from './summary';

const outline: Parameters<typeof entryTitleOf>[0] = {
  defaultLanguage: 'fr',
  data: [
    { name: 'tr_sites_sit', i18n: { title: { fr: 'Sites d’étude', en: 'Study sites' }, description: {} } },
    { name: 'institutes', i18n: { title: { fr: 'Instituts' }, description: {} } },
    { name: 'species', i18n: { title: {}, description: {} } },
  ],
};

describe('entryTitleOf', () => {
  it('names an entry by its title in the reader’s language', () => {
    expect(entryTitleOf(outline, 'tr_sites_sit', 'en')).toBe('Study sites');
    expect(entryTitleOf(outline, 'tr_sites_sit', 'fr')).toBe('Sites d’étude');
  });

  it('falls back to the default language’s title, then to the name', () => {
    expect(entryTitleOf(outline, 'institutes', 'en')).toBe('Instituts');
    expect(entryTitleOf(outline, 'species', 'en')).toBe('species');
    expect(entryTitleOf(outline, 'unknown', 'en')).toBe('unknown');
  });
});
