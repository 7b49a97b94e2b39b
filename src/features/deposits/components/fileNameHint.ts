import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { localized } from '@/domain/applications/summary';
import type { ApplicationModel, DataEntry } from '@/domain/configuration/model';
import { fileNameTemplate } from '@/domain/deposits/fileNameTemplate';

/**
 * What the deposit form says of file names: an example written with the names of what each part fills, or the list
 * of those parts when the pattern is no plain text around its groups. Never the regular expression itself.
 */
export function fileNameHint(i18n: I18n, model: ApplicationModel, entry: DataEntry): string | undefined {
  const rule = entry.submission.fileName;
  if (!rule) return undefined;
  const text = (value: Record<string, string> | undefined, fallback: string) =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const nameOf = (scope: string) => {
    if (scope === '__START_DATE__') return i18n._(msg`start date`);
    if (scope === '__END_DATE__') return i18n._(msg`end date`);
    const reference = entry.submission.referenceScopes.find((s) => s.component === scope);
    return reference
      ? text(reference.i18n.title, text(model.data.find((d) => d.name === reference.reference)?.i18n.title, scope))
      : scope;
  };
  const example = fileNameTemplate(rule, nameOf);
  if (example) return i18n._(msg`A file named ${example} fills the dataset and the period.`);
  const parts = new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(rule.matchPatternScopes.map(nameOf));
  return i18n._(msg`A file name that gives the ${parts} fills them in.`);
}
