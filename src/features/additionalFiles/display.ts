import type { I18n } from '@lingui/core';
import { binarySize } from '@/domain/additionalFiles/fileView';
import { localized } from '@/domain/applications/summary';
import type { FormField } from '@/domain/configuration/model';
import type { FieldChoices } from './api';

/**
 * A size in units of 1024 (spec §9), with the unit named in the reader's language (ko, kB…). Bytes are spelled
 * out: the short English unit has no plural ("30 byte").
 */
export function formatSize(i18n: I18n, bytes: number): string {
  const { value, unit } = binarySize(bytes);
  const unitDisplay = unit === 'byte' ? 'long' : 'short';
  return i18n.number(value, { style: 'unit', unit, unitDisplay, maximumFractionDigits: 1 });
}

export const fieldTitle = (field: FormField, locale: string, defaultLanguage: string) =>
  localized(field.i18n.title, locale, defaultLanguage, field.name);

/** A form value as read: the label of the reference row it names when known. */
export function fieldValueText(field: FormField, value: string | undefined, choices: FieldChoices | undefined): string {
  if (value === undefined) return '';
  return choices?.[field.name]?.find((choice) => choice.naturalKey === value)?.label ?? value;
}
