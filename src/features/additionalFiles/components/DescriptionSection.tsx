import { Trans, useLingui } from '@lingui/react/macro';
import { MAX_ADDITIONAL_FILE_COMMENT } from '@/domain/additionalFiles/fileForm';
import { entryTitleOf, localized } from '@/domain/applications/summary';
import type { AdditionalFileType, ApplicationModel } from '@/domain/configuration/model';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import type { FieldChoices } from '../api';
import { fieldTitle } from '../display';
import type { FileForm } from '../hooks/useFileForm';

interface DescriptionSectionProps {
  model: ApplicationModel;
  type: AdditionalFileType;
  /** Choices of the reference fields; a field without them takes a code. */
  choices: FieldChoices;
  form: FileForm;
  editable: boolean;
}

/** The type's format fields (a list of rows for a reference field with known choices) and the file's comment. */
export function DescriptionSection({ model, type, choices, form, editable }: DescriptionSectionProps) {
  const { t, i18n } = useLingui();
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  return (
    <section className="grid gap-4 rounded-lg border border-border bg-card p-4" aria-labelledby="format-fields">
      <h2 id="format-fields" className="text-lg font-semibold">
        <Trans>Description</Trans>
      </h2>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        {type.fields.map((field) => {
          const label = `${fieldTitle(field, i18n.locale, model.defaultLanguage)}${field.required ? ' *' : ''}`;
          const options = field.checker?.kind === 'reference' ? choices[field.name] : undefined;
          const referenceTitle =
            field.checker?.kind === 'reference' ? entryTitleOf(model, field.checker.reference, i18n.locale) : '';
          const hint =
            text(field.i18n.description) ||
            (field.checker?.kind === 'date' ? field.checker.pattern : undefined) ||
            (field.checker?.kind === 'reference' && !options ? t`The code of a row of ${referenceTitle}.` : undefined);
          const value = form.fields[field.name] ?? '';
          return (
            <FormField key={field.name} label={label} hint={hint} error={form.fieldError(field.name)}>
              {options ? (
                <NativeSelect
                  value={value}
                  disabled={!editable}
                  onChange={(event) => form.changeField(field.name, event.target.value)}
                  onBlur={() => form.touch(field.name)}
                  data-field={field.name}
                >
                  <option value="">{t`(none)`}</option>
                  {options.map((option) => (
                    <option key={option.naturalKey} value={option.naturalKey}>
                      {option.label}
                    </option>
                  ))}
                </NativeSelect>
              ) : (
                <Input
                  value={value}
                  disabled={!editable}
                  inputMode={
                    field.checker?.kind === 'integer' || field.checker?.kind === 'float' ? 'decimal' : undefined
                  }
                  onChange={(event) => form.changeField(field.name, event.target.value)}
                  onBlur={() => form.touch(field.name)}
                  data-field={field.name}
                />
              )}
            </FormField>
          );
        })}
      </div>
      <FormField label={`${t`Comment`} *`} error={form.partError('ADDITIONAL_FILE_COMMENT_REQUIRED', 'comment')}>
        <Textarea
          value={form.comment}
          disabled={!editable}
          maxLength={MAX_ADDITIONAL_FILE_COMMENT}
          rows={3}
          onChange={(event) => form.setComment(event.target.value)}
          onBlur={() => form.touch('comment')}
        />
      </FormField>
    </section>
  );
}
