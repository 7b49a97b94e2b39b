import { Trans, useLingui } from '@lingui/react/macro';
import type { Component } from '@/domain/configuration/model';
import type { ComponentFilter } from '@/domain/rows/rowQuery';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TagInput } from '@/components/ui/tag-input';
import { cn } from '@/lib/cn';

interface FilterPanelProps {
  components: Array<{ component: Component; title: string }>;
  filters: ComponentFilter[];
  onChange(filters: ComponentFilter[]): void;
  /** Suggestions per reference component (displayed values mapped to natural keys). */
  suggestions?: Record<string, Array<{ label: string; naturalKey: string }>>;
}

const isInterval = (component: Component) => ['integer', 'float', 'date'].includes(component.checker?.kind ?? '');

/** Interval filters for numbers and dates, value filters for everything else; empty filters are dropped. */
export function FilterPanel({ components, filters, onChange, suggestions = {} }: FilterPanelProps) {
  const { t } = useLingui();
  const current = (key: string) => filters.find((f) => f.componentKey === key);
  const update = (key: string, next: Omit<ComponentFilter, 'componentKey'>) => {
    const rest = filters.filter((f) => f.componentKey !== key);
    const keep = (next.filters?.length ?? 0) > 0 || next.intervalValues?.from || next.intervalValues?.to;
    onChange(keep ? [...rest, { componentKey: key, ...next }] : rest);
  };
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="filter-panel">
      {components.map(({ component, title }) => {
        const filter = current(component.key);
        if (isInterval(component)) {
          const kind = component.checker?.kind === 'date' ? 'date' : 'number';
          const interval = filter?.intervalValues ?? {};
          return (
            <fieldset key={component.key} className="grid gap-1">
              <legend className="mb-1 text-sm font-medium">{title}</legend>
              {/* Two date fields side by side need more room than a column may have: the second one goes under. */}
              <div className="flex flex-wrap gap-2">
                <div className={cn('grid min-w-0 grow gap-1', kind === 'date' ? 'basis-40' : 'basis-24')}>
                  <Label htmlFor={`${component.key}-from`} className="text-xs text-muted-foreground">
                    <Trans>from</Trans>
                  </Label>
                  <Input id={`${component.key}-from`} type={kind} className="min-w-0" value={interval.from ?? ''} onChange={(e) => update(component.key, { intervalValues: { ...interval, from: e.target.value || undefined } })} />
                </div>
                <div className={cn('grid min-w-0 grow gap-1', kind === 'date' ? 'basis-40' : 'basis-24')}>
                  <Label htmlFor={`${component.key}-to`} className="text-xs text-muted-foreground">
                    <Trans>to</Trans>
                  </Label>
                  <Input id={`${component.key}-to`} type={kind} className="min-w-0" value={interval.to ?? ''} onChange={(e) => update(component.key, { intervalValues: { ...interval, to: e.target.value || undefined } })} />
                </div>
              </div>
            </fieldset>
          );
        }
        const listId = `${component.key}-suggestions`;
        const options = suggestions[component.key] ?? [];
        const toKey = (text: string) => options.find((o) => o.label === text)?.naturalKey ?? text;
        return (
          <div key={component.key} className="grid gap-1">
            <span className="text-sm font-medium">{title}</span>
            <TagInput
              values={filter?.filters ?? []}
              onAdd={(value) => update(component.key, { filters: [...(filter?.filters ?? []), toKey(value)] })}
              onRemove={(value) => update(component.key, { filters: (filter?.filters ?? []).filter((v) => v !== value) })}
              label={t`Filter ${title}`}
              removeLabel={(value) => t`Remove ${value}`}
              placeholder={t`value, then Enter`}
              listId={options.length ? listId : undefined}
            />
            {options.length ? (
              <datalist id={listId}>
                {options.map((o) => (
                  <option key={o.naturalKey} value={o.label} />
                ))}
              </datalist>
            ) : null}
          </div>
        );
      })}
      <div className="flex items-end">
        <Button variant="outline" onClick={() => onChange([])} disabled={filters.length === 0}>
          <Trans>Clear the filters</Trans>
        </Button>
      </div>
    </div>
  );
}
