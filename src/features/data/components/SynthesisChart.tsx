import { useLingui } from '@lingui/react/macro';
import type { Synthesis } from '@/contract/data';
import { callApi } from '@/lib/api/client';
import { useKeptQuery } from '@/offline/useKeptQuery';

/** Lines over time as ten small bars (the largest count among the variables in each interval). */
export function SynthesisChart({ applicationName, dataType, title }: { applicationName: string; dataType: string; title: string }) {
  const { t, i18n } = useLingui();
  // A chart the server cannot draw (no right, out of reach with nothing kept) is left out: the card says the rest.
  const { data: synthesis } = useKeptQuery(['application', applicationName, 'synthesis', dataType], (signal) =>
    callApi<Synthesis>(`/applications/${encodeURIComponent(applicationName)}/synthesis/${encodeURIComponent(dataType)}`, { signal }),
  );
  if (!synthesis || synthesis.intervals.length === 0) return null;
  const counts = synthesis.intervals.map((_, i) => Math.max(0, ...Object.values(synthesis.variables).map((values) => values[i] ?? 0)));
  const highest = Math.max(1, ...counts);
  const day = (time: number) => i18n.date(new Date(time), { dateStyle: 'medium', timeZone: 'UTC' });
  const from = Date.parse(`${synthesis.from!}Z`);
  // Periods end where the next one starts (a day ends at the next midnight): the last day shown is the one before.
  const lastDay = Math.max(from, Date.parse(`${synthesis.to!}Z`) - 1);
  const label = t`Lines of ${title} from ${day(from)} to ${day(lastDay)}`;
  return (
    <svg role="img" aria-label={label} viewBox="0 0 100 24" className="h-8 w-28" data-testid="synthesis-chart">
      <title>{label}</title>
      {counts.map((count, i) => {
        const height = Math.max(count > 0 ? 2 : 0, (count / highest) * 22);
        return <rect key={i} x={i * 10 + 1} y={24 - height} width={8} height={height} rx={1} className="fill-primary" />;
      })}
    </svg>
  );
}
