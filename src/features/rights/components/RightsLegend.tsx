import { useLingui } from '@lingui/react/macro';
import { Lock, Square } from 'lucide-react';
import type { Operation } from '@/domain/rights/operations';
import { operationHelp, operationLabels } from '../operationLabels';

/** What the rights table's columns and marks mean; the faded box only for a granter who may not give everything. */
export function RightsLegend({
  operations,
  lockedNote,
  notGrantableNote,
}: {
  operations: Operation[];
  lockedNote: string;
  notGrantableNote?: string;
}) {
  const { t, i18n } = useLingui();
  // The marks sit on the first line of their note: a note on two lines (on a phone) had its mark between the lines.
  return (
    <dl className="grid gap-x-4 text-sm text-muted-foreground sm:grid-cols-2">
      {operations.map((op) => (
        <div key={op} className="flex gap-1">
          <dt className="whitespace-nowrap font-medium">{t`${i18n._(operationLabels[op])}:`}</dt>
          <dd>{i18n._(operationHelp[op])}</dd>
        </div>
      ))}
      <div className="flex gap-1">
        <dt className="pt-1">
          <Lock className="size-3" aria-label={t`Lock`} />
        </dt>
        <dd>{lockedNote}</dd>
      </div>
      {notGrantableNote ? (
        <div className="flex gap-1">
          <dt className="pt-1">
            <Square className="size-3 opacity-50" aria-label={t`Faded box`} />
          </dt>
          <dd>{notGrantableNote}</dd>
        </div>
      ) : null}
    </dl>
  );
}
