import { useLingui } from '@lingui/react/macro';
import { entryTitleOf, localized } from '@/domain/applications/summary';
import type { ApplicationOutline } from '@/domain/applications/outline';
import type { FormField as ConfigurationField } from '@/domain/configuration/model';
import type { FormFieldProblem } from '@/domain/forms/checkFormFields';
import { withChoiceLabels } from '@/domain/forms/fieldChoices';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { describeProblem } from '@/lib/i18n/problems';

interface RequestFormFieldsProps {
  fields: readonly ConfigurationField[];
  /** The application: its default language, and the titles its problems name references by. */
  model: ApplicationOutline;
  values: Record<string, string>;
  /** Natural key and label of the rows a reference field may name. */
  choices: Record<string, Array<{ naturalKey: string; label: string }>>;
  problems: readonly FormFieldProblem[];
  /** Problems are shown once the user tried to save, or for a field they have filled. */
  tried: boolean;
  onChange(values: Record<string, string>): void;
}

/** The fields of the application's `OA_rightsRequest` form, one control per checker kind. */
export function RequestFormFields({
  fields,
  model,
  values,
  choices,
  problems,
  tried,
  onChange,
}: RequestFormFieldsProps) {
  const { t, i18n } = useLingui();
  const set = (name: string, value: string) => onChange({ ...values, [name]: value });
  const { defaultLanguage } = model;
  const entryTitle = (name: string) => entryTitleOf(model, name, i18n.locale);
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="request-fields">
      {fields.map((field) => {
        const title = localized(field.i18n.title, i18n.locale, defaultLanguage, field.name);
        const description = localized(field.i18n.description, i18n.locale, defaultLanguage);
        const checker = field.checker;
        const value = values[field.name] ?? '';
        const options =
          checker?.kind === 'reference' && checker.multiplicity === 'ONE' ? choices[field.name] : undefined;
        const problem = problems.find((p) => p.field === field.name);
        const shown =
          problem && (tried || value !== '')
            ? describeProblem(
                i18n,
                { code: problem.code, params: { ...withChoiceLabels(problem.params, options), component: title } },
                entryTitle,
              )
            : undefined;
        const hint =
          checker?.kind === 'date'
            ? [description, t`Format: ${checker.pattern}`].filter(Boolean).join(' — ')
            : description || undefined;
        return (
          <FormField key={field.name} label={`${title} *`} error={shown} hint={hint}>
            {options ? (
              <NativeSelect
                value={value}
                name={field.name}
                required
                onChange={(event) => set(field.name, event.target.value)}
              >
                <option value="">{t`Choose…`}</option>
                {options.map((choice) => (
                  <option key={choice.naturalKey} value={choice.naturalKey}>
                    {choice.label}
                  </option>
                ))}
              </NativeSelect>
            ) : (
              <Input
                value={value}
                name={field.name}
                required
                autoComplete="off"
                inputMode={checker?.kind === 'integer' || checker?.kind === 'float' ? 'decimal' : undefined}
                placeholder={checker?.kind === 'date' ? checker.pattern.toLowerCase() : undefined}
                onChange={(event) => set(field.name, event.target.value)}
              />
            )}
          </FormField>
        );
      })}
    </div>
  );
}
