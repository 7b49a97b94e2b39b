import { Languages } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { Locale } from '@/lib/i18n/language';

/** Language names are written in their own language so anyone can find theirs. */
const NAMES: Record<Locale, string> = { en: 'English', fr: 'Français' };

export function LanguageSelect({
  value,
  onChange,
  label,
}: {
  value: Locale;
  onChange(locale: Locale): void;
  label: string;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" aria-label={`${label}: ${NAMES[value]}`} data-testid="language-select">
          <Languages aria-hidden />
          <span className="uppercase">{value}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuRadioGroup value={value} onValueChange={(next) => onChange(next as Locale)}>
          {(Object.keys(NAMES) as Locale[]).map((locale) => (
            <DropdownMenuRadioItem key={locale} value={locale} lang={locale}>
              {NAMES[locale]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
