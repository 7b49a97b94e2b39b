import type { AdditionalFileType } from '../../src/domain/configuration/model.ts';
import type { ServerContext } from '../context.ts';
import type { ApplicationRow } from '../db/schema.ts';
import type { Rights } from '../../src/domain/rights/access.ts';
import { referenceChoices } from './fieldChoices.ts';
import type { FieldChoice } from '../../src/domain/forms/fieldChoices.ts';

/**
 * The choices of each reference field (natural key and label in `locale`, by label) whose reference is small enough
 * to choose from (`fieldChoices`), and for the others the labels of the values `files` hold (`valueLabels`).
 */
export async function fieldChoicesOf(
  ctx: ServerContext,
  application: ApplicationRow,
  type: AdditionalFileType,
  locale: string,
  valuesOf: (field: string) => string[],
  reader: Rights,
) {
  const model = application.model;
  const fieldChoices: Record<string, FieldChoice[]> = {};
  const valueLabels: Record<string, FieldChoice[]> = {};
  const byLabel = (a: FieldChoice, b: FieldChoice) => a.label.localeCompare(b.label, locale);
  for (const field of type.fields) {
    if (field.checker?.kind !== 'reference') continue;
    const target = model.data.find((d) => d.name === (field.checker as { reference: string }).reference);
    if (!target) {
      fieldChoices[field.name] = [];
      continue;
    }
    const { choices, labels } = await referenceChoices(ctx, application, target, locale, reader, valuesOf(field.name));
    if (choices) fieldChoices[field.name] = choices.sort(byLabel);
    else valueLabels[field.name] = labels.sort(byLabel);
  }
  return { fieldChoices, valueLabels };
}

/** The values `files` hold in a field, for {@link fieldChoicesOf}. */
export const valuesIn = (files: ReadonlyArray<{ fields: Record<string, string> }>) => (field: string) =>
  files.map((file) => file.fields[field]).filter((value): value is string => Boolean(value));
