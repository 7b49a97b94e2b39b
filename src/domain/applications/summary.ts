import type { ApplicationModel, DataEntry, LocaleText } from '../configuration/model';

/** What lists and cards need of an application, small enough to send 500 of them in a second. */
export interface ApplicationSummary {
  title: LocaleText;
  description: LocaleText;
  defaultLanguage: string;
  references: string[];
  dataTypes: string[];
  additionalFiles: string[];
  hasRightsRequest: boolean;
}

export function summarizeApplication(model: ApplicationModel): ApplicationSummary {
  return {
    title: model.i18n.title,
    description: model.i18n.description,
    defaultLanguage: model.defaultLanguage,
    references: model.data.filter((d) => d.kind === 'reference').map((d) => d.name),
    dataTypes: model.data.filter((d) => d.kind === 'dataType').map((d) => d.name),
    additionalFiles: model.additionalFiles.map((f) => f.name),
    hasRightsRequest: model.rightsRequest !== null,
  };
}

/** A text in the wanted language, else the configuration's default language, else any text, else `fallback`. */
export function localized(
  text: LocaleText | undefined,
  locale: string,
  defaultLanguage: string,
  fallback = '',
): string {
  if (!text) return fallback;
  // Own entries only: a locale named like an inherited property (`constructor`, `__proto__`) is no language.
  const own = (language: string) => (Object.hasOwn(text, language) ? text[language] : undefined);
  return own(locale) || own(defaultLanguage) || Object.values(text).find((t) => t) || fallback;
}

/** The title of an entry in `locale`, or its name when the configuration gives it none or has no such entry. */
export function entryTitleOf(
  // An outline names its entries as a whole model does: the pages that hold only an outline name them alike.
  model: { data: ReadonlyArray<Pick<DataEntry, 'name' | 'i18n'>>; defaultLanguage: string },
  name: string,
  locale: string,
): string {
  return localized(model.data.find((entry) => entry.name === name)?.i18n.title, locale, model.defaultLanguage, name);
}
