import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ApplicationModel, Component } from '@/domain/configuration/model';
import { TagInput } from '@/components/ui/tag-input';
import { useReferenceSuggestions } from '../hooks/useReferenceSuggestions';

interface ReferenceFilterProps {
  application: string;
  model: ApplicationModel;
  component: Component;
  title: string;
  /** The natural keys filtered on. */
  values: string[];
  /** The label of a natural key picked among the suggestions (its chip shows it). */
  labelOf(naturalKey: string): string | undefined;
  onChange(values: string[], picked?: { naturalKey: string; label: string }): void;
}

/**
 * A filter on a component pointing to a reference, typed as people see its rows: the rows whose display label (in
 * the interface's language) or natural key begin so are offered as the text is typed; the one picked filters by its
 * natural key, and its chip shows its label. A text typed and not picked is taken as a natural key.
 */
export function ReferenceFilter({ application, model, component, title, values, labelOf, onChange }: ReferenceFilterProps) {
  const { t, i18n } = useLingui();
  const [text, setText] = useState('');
  const referenceName = component.checker?.kind === 'reference' ? component.checker.reference : undefined;
  const reference = model.data.find((entry) => entry.name === referenceName);
  const { suggestions, searching, unavailable } = useReferenceSuggestions(application, reference, text, i18n.locale, model.defaultLanguage);
  const note = searching ? <Trans>Searching…</Trans> : unavailable ? <Trans>No suggestion out of the server's reach: type a code.</Trans> : <Trans>No line of the reference matches.</Trans>;
  return (
    <div className="grid gap-1">
      <span className="text-sm font-medium">{title}</span>
      <TagInput
        values={values}
        display={(value) => labelOf(value) ?? value}
        onAdd={(value, label) => {
          if (values.includes(value)) return;
          onChange([...values, value], label === undefined ? undefined : { naturalKey: value, label });
        }}
        onRemove={(value) => onChange(values.filter((v) => v !== value))}
        label={t`Filter ${title}`}
        removeLabel={(value) => t`Remove ${value}`}
        placeholder={t`name or code`}
        suggestions={suggestions.map((s) => ({ value: s.naturalKey, label: s.label }))}
        onTextChange={setText}
        suggestionsLabel={t`Lines of ${title}`}
        suggestionsNote={note}
      />
    </div>
  );
}
