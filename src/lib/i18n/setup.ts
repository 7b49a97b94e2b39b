import { i18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, LANGUAGE_STORAGE_KEY, chooseLanguage, type Locale } from './language';

export { i18n };

// The Lingui Vite plugin compiles the .po catalogs at build time; each locale is its own chunk.
const catalogs: Record<Locale, () => Promise<Messages[]>> = {
  fr: () =>
    Promise.all([import('../../../locales/fr/messages.po'), import('../../../locales/fr/errors.po')]).then((m) =>
      m.map((c) => c.messages),
    ),
  en: () =>
    Promise.all([import('../../../locales/en/messages.po'), import('../../../locales/en/errors.po')]).then((m) =>
      m.map((c) => c.messages),
    ),
};

export function initialLanguage(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage blocked (private mode): fall back to the browser's languages
  }
  return chooseLanguage(stored, typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

export async function activateLanguage(locale: Locale, remember = false): Promise<void> {
  // Remembered before its catalog arrives: a page reloaded meanwhile (or a catalog that cannot be fetched
  // offline) would otherwise come back in the previous language.
  if (remember) {
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
    } catch {
      // the choice then lasts for this visit only
    }
  }
  const [ui, errors] = await catalogs[locale]();
  i18n.load(locale, { ...errors, ...ui });
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

export function currentLanguage(): Locale {
  return (i18n.locale as Locale) || DEFAULT_LOCALE;
}
