import { useLingui } from '@lingui/react';
import { activateLanguage } from './setup';
import type { Locale } from './language';

/** The active language and a way to change it; the choice is remembered on this device. */
export function useLanguage(): [Locale, (locale: Locale) => void] {
  const { i18n } = useLingui();
  return [i18n.locale as Locale, (locale) => void activateLanguage(locale, true)];
}
