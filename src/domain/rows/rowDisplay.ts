import type { DataEntry, DisplayTemplate } from '../configuration/model';
import { cellText } from './cellText';

/**
 * A row shown as text by its entry's display pattern (`OA_i18nDisplayPattern > OA_title`) in a language, else the
 * configuration's default language, else its natural key.
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
      'text' in part ? part.text : cellText(values[part.component], checkers.get(part.component) ?? null),
    )
    .join('');
}

/** The display pattern a language shows rows by: its own, else the default language's, else the first given. */
export function displayTemplate(
  entry: Pick<DataEntry, 'displayPattern'>,
  locale: string,
  defaultLanguage: string,
): DisplayTemplate | undefined {
  const templates = entry.displayPattern?.title;
  return templates?.[locale] ?? templates?.[defaultLanguage] ?? (templates ? Object.values(templates)[0] : undefined);
}
