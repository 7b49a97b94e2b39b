import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { localized } from '@/domain/applications/summary';
import type { DataEntry } from '@/domain/configuration/model';
import { barsOf, lastDayOf, timeOf, variablesOf } from '@/domain/synthesis/series';
import { Button } from '@/components/ui/button';
import { useSynthesis } from '../hooks/useSynthesis';
import { SynthesisDialog } from './SynthesisDialog';

interface SynthesisChartProps {
  applicationName: string;
  entry: DataEntry;
  defaultLanguage: string;
  title: string;
}

/**
 * On a data type's card: the lines over time of its most filled variable as ten small bars, in a button that opens
 * the full chart (every variable, axes, tooltips, a table).
 */
export function SynthesisChart({ applicationName, entry, defaultLanguage, title }: SynthesisChartProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  // A chart the server cannot draw (no right, out of reach with nothing kept) is left out: the card says the rest.
  const { data: synthesis } = useSynthesis(applicationName, entry.name);
  if (!synthesis || synthesis.intervals.length === 0) return null;
  const top = variablesOf(synthesis)[0];
  const counts = top ? barsOf(synthesis, top.key).map((bar) => bar.count) : [];
  const highest = Math.max(1, ...counts);
  const day = (time: number) => i18n.date(new Date(time), { dateStyle: 'medium', timeZone: 'UTC' });
  const from = timeOf(synthesis.from!);
  const label = t`Synthesis of ${title}: lines from ${day(from)} to ${day(lastDayOf(from, timeOf(synthesis.to!)))}`;
  const variableLabel = (key: string) => {
    const component = entry.components.find((c) => c.key === key);
    return localized(component?.exportHeader.title, i18n.locale, defaultLanguage, key);
  };
  return (
    <>
      <Button variant="outline" size="sm" aria-label={label} title={label} onClick={() => setOpen(true)} data-testid="synthesis-chart">
        {/* The button sizes its icons: the sparkline keeps its own, wider size. */}
        <svg aria-hidden viewBox="0 0 100 24" className="h-6! w-16!">
          {counts.map((count, i) => {
            const height = Math.max(count > 0 ? 2 : 0, (count / highest) * 22);
            return <rect key={i} x={i * 10 + 1} y={24 - height} width={8} height={height} rx={1} className="fill-primary" />;
          })}
        </svg>
        <Trans>Synthesis</Trans>
      </Button>
      {open ? <SynthesisDialog synthesis={synthesis} title={title} variableLabel={variableLabel} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
