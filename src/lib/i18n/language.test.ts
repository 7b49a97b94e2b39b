import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './language';

describe('the interface language', () => {
  it('is the stored choice when there is one', () => {
    expect(chooseLanguage('en', ['fr-FR'])).toBe('en');
    expect(chooseLanguage('fr', ['en-GB'])).toBe('fr');
  });

  it('is the browser language when it is French or English', () => {
    expect(chooseLanguage(null, ['en-US', 'fr'])).toBe('en');
    expect(chooseLanguage(undefined, ['fr-CA'])).toBe('fr');
  });

  it('falls back to French otherwise', () => {
    expect(chooseLanguage(null, ['de-DE', 'en'])).toBe('fr');
    expect(chooseLanguage(null, [])).toBe('fr');
    expect(chooseLanguage('xx', ['es'])).toBe('fr');
  });
});
