import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import type { FormField } from '@/domain/configuration/model';

/** What the filter panel holds per field. */
export type FilterValues = Record<string, { text?: string; from?: string; to?: string }>;

export const isInterval = (field: FormField) =>
  field.checker?.kind === 'date' || field.checker?.kind === 'integer' || field.checker?.kind === 'float';

/** The filters the values of the panel make: text contained in a value, or bounds of a date or a number. */
export function filtersOf(fields: readonly FormField[], values: FilterValues): FieldFilter[] {
  const filters: FieldFilter[] = [];
  for (const field of fields) {
    const value = values[field.name] ?? {};
    if (isInterval(field)) {
      const from = value.from?.trim() || null;
      const to = value.to?.trim() || null;
      if (from || to) filters.push({ field: field.name, intervalValues: { from, to } });
    } else if (value.text?.trim()) {
      filters.push({ field: field.name, filter: value.text.trim() });
    }
  }
  return filters;
}
