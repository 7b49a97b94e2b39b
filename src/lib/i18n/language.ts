export type Locale = 'fr' | 'en';
export const LOCALES: readonly Locale[] = ['fr', 'en'];
export const DEFAULT_LOCALE: Locale = 'fr';
export const LANGUAGE_STORAGE_KEY = 'lang';

const asLocale = (value: string | null | undefined): Locale | undefined => {
  const tag = value?.trim().slice(0, 2).toLowerCase();
  return tag === 'fr' || tag === 'en' ? tag : undefined;
};

/** The stored choice first, then the browser's first language if it is French or English, else French. */
export function chooseLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): Locale {
  const chosen = asLocale(stored);
  if (chosen) return chosen;
  const first = browserLanguages[0];
  return asLocale(first) ?? DEFAULT_LOCALE;
}
