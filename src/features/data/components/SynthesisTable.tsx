import { Trans } from '@lingui/react/macro';
import type { SynthesisBar } from '@/domain/synthesis/series';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';

interface SynthesisTableProps {
  caption: string;
  bars: SynthesisBar[];
  interval(bar: SynthesisBar): string;
  number(value: number): string;
  /** Shown to everyone, or only to screen readers (the chart says the same to the eyes). */
  shown: boolean;
}

/** The chart as a table: one row per interval with its lines. */
export function SynthesisTable({ caption, bars, interval, number, shown }: SynthesisTableProps) {
  return (
    // Two narrow columns never scroll sideways: no scrolling box (hidden, it would be a region the keyboard cannot reach).
    <div className={cn('rounded-lg border border-border bg-card', !shown && 'sr-only')} data-testid="synthesis-table">
      <table className="w-full border-collapse text-left text-base">
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Interval</Trans>
            </TableHead>
            <TableHead className="text-right">
              <Trans>Lines</Trans>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {bars.map((bar) => (
            <TableRow key={bar.from}>
              <TableCell>{interval(bar)}</TableCell>
              <TableCell className="text-right tabular-nums">{number(bar.count)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </table>
    </div>
  );
}
