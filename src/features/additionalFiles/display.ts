import { localized } from '@/domain/applications/summary';
import type { FormField } from '@/domain/configuration/model';
import type { FieldChoices } from './api';

export const fieldTitle = (field: FormField, locale: string, defaultLanguage: string) =>
  localized(field.i18n.title, locale, defaultLanguage, field.name);

/** A form value as read: the label of the reference row it names when known. */
export function fieldValueText(field: FormField, value: string | undefined, choices: FieldChoices | undefined): string {
  if (value === undefined) return '';
  return choices?.[field.name]?.find((choice) => choice.naturalKey === value)?.label ?? value;
}
