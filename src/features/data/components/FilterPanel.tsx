import { Trans, useLingui } from '@lingui/react/macro';
import type { ApplicationModel, Component } from '@/domain/configuration/model';
import { useState } from 'react';
import { readInterval } from '@/domain/rows/intervals';
import type { ComponentFilter } from '@/domain/rows/rowQuery';
import { Button } from '@/components/ui/button';
import { TagInput } from '@/components/ui/tag-input';
import { IntervalFilter, type IntervalDraft } from './IntervalFilter';
import { ReferenceFilter } from './ReferenceFilter';

interface FilterPanelProps {
  components: Array<{ component: Component; title: string }>;
  filters: ComponentFilter[];
  onChange(filters: ComponentFilter[]): void;
  /** The application and its model: reference filters suggest the rows of the references they point to. */
  application: string;
  model: ApplicationModel;
  /** Labels of the natural keys picked in reference filters, by component (kept by the page, so that they outlive the panel). */
  labels: Record<string, string>;
  onLabel(key: string, label: string): void;
}

const isInterval = (component: Component) => ['integer', 'float', 'date'].includes(component.checker?.kind ?? '');

/**
 * Interval filters for numbers and dates, reference filters (suggesting rows by their labels) for components
 * pointing to a reference, value filters for everything else; empty filters are dropped. An interval
 * typed but not usable (one end, or reversed) stays in the form with its reason and out of the query, so the count
 * of active filters never holds one that filters nothing.
 */
export function FilterPanel({ components, filters, onChange, application, model, labels, onLabel }: FilterPanelProps) {
  const { t } = useLingui();
  const [drafts, setDrafts] = useState<Record<string, IntervalDraft>>({});
  const current = (key: string) => filters.find((f) => f.componentKey === key);
  const update = (key: string, next: Omit<ComponentFilter, 'componentKey'>) => {
    const rest = filters.filter((f) => f.componentKey !== key);
    const keep = (next.filters?.length ?? 0) > 0 || next.intervalValues?.from || next.intervalValues?.to;
    onChange(keep ? [...rest, { componentKey: key, ...next }] : rest);
  };
  const changeInterval = (component: Component, next: IntervalDraft) => {
    setDrafts((kept) => ({ ...kept, [component.key]: next }));
    const usable = readInterval(component.checker, next.from, next.to).state === 'usable';
    update(component.key, usable ? { intervalValues: next } : {});
  };
  const typed = Object.values(drafts).some((draft) => draft.from || draft.to);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="filter-panel">
      {components.map(({ component, title }) => {
        const filter = current(component.key);
        if (isInterval(component)) {
          const draft = drafts[component.key] ?? filter?.intervalValues ?? {};
          return (
            <IntervalFilter
              key={component.key}
              name={component.key}
              title={title}
              kind={component.checker?.kind === 'date' ? 'date' : 'number'}
              draft={draft}
              state={readInterval(component.checker, draft.from, draft.to).state}
              onChange={(next) => changeInterval(component, next)}
            />
          );
        }
        if (component.checker?.kind === 'reference') {
          return (
            <ReferenceFilter
              key={component.key}
              application={application}
              model={model}
              component={component}
              title={title}
              values={filter?.filters ?? []}
              labelOf={(naturalKey) => labels[`${component.key}\u0000${naturalKey}`]}
              onChange={(values, picked) => {
                if (picked) onLabel(`${component.key}\u0000${picked.naturalKey}`, picked.label);
                update(component.key, { filters: values });
              }}
            />
          );
        }
        return (
          <div key={component.key} className="grid gap-1">
            <span className="text-sm font-medium">{title}</span>
            <TagInput
              values={filter?.filters ?? []}
              onAdd={(value) => update(component.key, { filters: [...(filter?.filters ?? []), value] })}
              onRemove={(value) => update(component.key, { filters: (filter?.filters ?? []).filter((v) => v !== value) })}
              label={t`Filter ${title}`}
              removeLabel={(value) => t`Remove ${value}`}
              placeholder={t`value, then Enter`}
            />
          </div>
        );
      })}
      <div className="flex items-end">
        <Button
          variant="outline"
          onClick={() => {
            setDrafts({});
            onChange([]);
          }}
          disabled={filters.length === 0 && !typed}
        >
          <Trans>Clear the filters</Trans>
        </Button>
      </div>
    </div>
  );
}
