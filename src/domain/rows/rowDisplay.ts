import type { Checker, DataEntry, DisplayTemplate } from '../configuration/model';
import { withoutLeadingNullParts } from '../keys';
import { cellText } from './cellText';

/**
 * A row shown as text by its entry's display pattern (`OA_i18nDisplayPattern > OA_title`) in a language, else the
 * configuration's default language, else its natural key. Rows a pattern names are named as people write them
 * (`nivelle`, not `NULL_KEY__nivelle`).
 */
export function rowDisplay(
  entry: DataEntry,
  values: Record<string, unknown>,
  naturalKey: string,
  locale: string,
  defaultLanguage: string,
): string {
  const template = displayTemplate(entry, locale, defaultLanguage);
  if (!template) return naturalKey;
  const checkers = new Map(entry.components.map((c) => [c.key, c.checker]));
  return template.parts
    .map((part) =>
      'text' in part ? part.text : partText(values[part.component], checkers.get(part.component) ?? null),
    )
    .join('');
}

function partText(value: unknown, checker: Checker | null): string {
  const text = cellText(value, checker);
  return checker?.kind === 'reference' ? text.split(',').map(withoutLeadingNullParts).join(',') : text;
}

/** The display pattern a language shows rows by: its own, else the default language's, else the first given. */
export function displayTemplate(
  entry: Pick<DataEntry, 'displayPattern'>,
  locale: string,
  defaultLanguage: string,
): DisplayTemplate | undefined {
  const templates = entry.displayPattern?.title;
  // Own entries only: a locale named like an inherited property (`constructor`, `__proto__`) is no language.
  const own = (language: string) => (templates && Object.hasOwn(templates, language) ? templates[language] : undefined);
  return own(locale) ?? own(defaultLanguage) ?? (templates ? Object.values(templates)[0] : undefined);
}
