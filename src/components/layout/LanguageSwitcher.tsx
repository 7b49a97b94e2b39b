import { useLingui } from '@lingui/react/macro';
import { useLanguage } from '@/lib/i18n/useLanguage';
import { LanguageSelect } from './LanguageSelect';

export function LanguageSwitcher() {
  const { t } = useLingui();
  const [language, setLanguage] = useLanguage();
  return <LanguageSelect value={language} onChange={setLanguage} label={t`Language`} />;
}
