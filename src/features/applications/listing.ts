import type { ApplicationView } from '@/domain/applications/applicationView';
import { localized } from '@/domain/applications/summary';

export const SORT_MODES = ['Az', 'Za', '0_9', '9_0'] as const;
export type SortMode = (typeof SORT_MODES)[number];
export const CARDS_PER_PAGE = 9;
/** The name filter applies once the text is longer than this. */
export const FILTER_MIN_LENGTH = 2;

/** The name shown for an application: its title in the language, else its technical name. */
export function localName(
  application: Pick<ApplicationView, 'title' | 'defaultLanguage' | 'name'>,
  locale: string,
): string {
  return localized(application.title, locale, application.defaultLanguage, application.name);
}

/** The date a card shows and sorts by: the last update, or the creation when it was never updated. */
export function shownDate(application: Pick<ApplicationView, 'creationDate' | 'updateDate'>): string {
  return application.updateDate || application.creationDate;
}

export function sortApplications<T extends ApplicationView>(
  applications: readonly T[],
  mode: SortMode,
  locale: string,
): T[] {
  const byName = (a: T, b: T) =>
    localName(a, locale).localeCompare(localName(b, locale), locale, { sensitivity: 'base' }) ||
    a.name.localeCompare(b.name);
  const byDate = (a: T, b: T) => shownDate(a).localeCompare(shownDate(b)) || a.name.localeCompare(b.name);
  const sorted = [...applications];
  switch (mode) {
    case 'Az':
      return sorted.sort(byName);
    case 'Za':
      return sorted.sort((a, b) => byName(b, a));
    case '0_9':
      return sorted.sort((a, b) => byDate(b, a));
    case '9_0':
      return sorted.sort(byDate);
  }
}

export function filterApplications<T extends ApplicationView>(
  applications: readonly T[],
  text: string,
  locale: string,
): T[] {
  const needle = text.trim().toLocaleLowerCase(locale);
  if (needle.length <= FILTER_MIN_LENGTH) return [...applications];
  return applications.filter(
    (a) => localName(a, locale).toLocaleLowerCase(locale).includes(needle) || a.name.includes(needle),
  );
}

export type DataPart = 'references' | 'dataTypes';

/**
 * The data buttons of a card: one per part the application has, enabled only when the user may read some of it.
 * A link cannot be disabled, so a refused part is shown as a disabled button with the reason beside it: the user
 * learns the data exist and that rights are asked for in the requests.
 */
export function dataButtons(
  application: Pick<ApplicationView, 'references' | 'dataTypes' | 'canReadReference' | 'canReadDatatype'>,
): Array<{ part: DataPart; enabled: boolean }> {
  const buttons: Array<{ part: DataPart; enabled: boolean }> = [];
  if (application.references?.length) buttons.push({ part: 'references', enabled: application.canReadReference });
  if (application.dataTypes?.length) buttons.push({ part: 'dataTypes', enabled: application.canReadDatatype });
  return buttons;
}
