import { Trans, useLingui } from '@lingui/react/macro';
import { LoaderCircle } from 'lucide-react';
import { localized } from '@/domain/applications/summary';
import type { ApplicationModel, DataEntry } from '@/domain/configuration/model';
import type { KeptRow } from '@/domain/rows/filterRows';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useScopeLabels } from '../hooks/useScopeLabels';
import { ScopeSelect } from './ScopeSelect';

interface DatasetCardProps {
  model: ApplicationModel;
  entry: DataEntry;
  scopeRows: Record<string, KeptRow[]>;
  /** The scope rows are read (or known to be missing). */
  ready: boolean;
  scope: Record<string, string>;
  onChange: (component: string, hierarchicalKey: string) => void;
}

/** The dataset deposits go to: one value per scope reference of the data type. */
export function DatasetCard({ model, entry, scopeRows, ready, scope, onChange }: DatasetCardProps) {
  const { t, i18n } = useLingui();
  const text = (value: Record<string, string> | undefined, fallback = '') =>
    localized(value, i18n.locale, model.defaultLanguage, fallback);
  const { displayOf, labelOf } = useScopeLabels(model, scopeRows);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans>Dataset</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        {!ready ? <LoaderCircle className="size-5 animate-spin" aria-label={t`Loading`} /> : null}
        {ready
          ? entry.submission.referenceScopes.map((reference) => (
              <ScopeSelect
                key={reference.component}
                label={text(
                  reference.i18n.title,
                  text(model.data.find((d) => d.name === reference.reference)?.i18n.title, reference.component),
                )}
                rows={scopeRows[reference.reference] ?? []}
                value={scope[reference.component] ?? ''}
                onChange={(value) => onChange(reference.component, value)}
                display={displayOf(reference.reference)}
                labelOf={labelOf}
              />
            ))
          : null}
      </CardContent>
    </Card>
  );
}
