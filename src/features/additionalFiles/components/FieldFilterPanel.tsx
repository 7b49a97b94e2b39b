import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Filter, X } from 'lucide-react';
import type { FieldFilter } from '@/domain/additionalFiles/filesQuery';
import type { FormField } from '@/domain/configuration/model';
import { Button } from '@/components/ui/button';
import { FormField as Field } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldTitle } from '../display';
import { filtersOf, isInterval, type FilterValues } from '../filters';
import { Panel } from './Panel';

/** A collapsible panel filtering files on their form values; the server applies the filters. */
export function FieldFilterPanel({
  fields,
  defaultLanguage,
  onApply,
}: {
  fields: FormField[];
  defaultLanguage: string;
  onApply(filters: FieldFilter[]): void;
}) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState<FilterValues>({});
  const set = (name: string, part: 'text' | 'from' | 'to', value: string) =>
    setValues((current) => ({ ...current, [name]: { ...current[name], [part]: value } }));
  const active = filtersOf(fields, values).length;

  function apply(event: FormEvent) {
    event.preventDefault();
    onApply(filtersOf(fields, values));
  }

  if (fields.length === 0) return null;
  return (
    <Panel
      testId="file-filters"
      title={
        <>
          <Filter className="size-5" aria-hidden />
          <Trans>Filters</Trans>
          {active ? <span className="text-sm font-normal text-muted-foreground">({active})</span> : null}
        </>
      }
    >
      <form className="grid gap-4" onSubmit={apply}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {fields.map((field) => {
            const title = fieldTitle(field, i18n.locale, defaultLanguage);
            const value = values[field.name] ?? {};
            if (!isInterval(field)) {
              return (
                <Field key={field.name} label={t`${title} contains`}>
                  <Input
                    type="search"
                    value={value.text ?? ''}
                    onChange={(event) => set(field.name, 'text', event.target.value)}
                  />
                </Field>
              );
            }
            const pattern = field.checker?.kind === 'date' ? field.checker.pattern : undefined;
            return (
              <fieldset key={field.name} className="grid grid-cols-2 gap-2">
                <legend className="mb-1 text-sm font-medium">{title}</legend>
                <Field label={t`From`}>
                  <Input
                    value={value.from ?? ''}
                    inputMode={pattern ? 'text' : 'decimal'}
                    placeholder={pattern}
                    onChange={(event) => set(field.name, 'from', event.target.value)}
                  />
                </Field>
                <Field label={t`To`}>
                  <Input
                    value={value.to ?? ''}
                    inputMode={pattern ? 'text' : 'decimal'}
                    placeholder={pattern}
                    onChange={(event) => set(field.name, 'to', event.target.value)}
                  />
                </Field>
              </fieldset>
            );
          })}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">
            <Filter aria-hidden />
            <Trans>Filter</Trans>
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setValues({});
              onApply([]);
            }}
          >
            <X aria-hidden />
            <Trans>Clear the filters</Trans>
          </Button>
        </div>
      </form>
    </Panel>
  );
}
