import { useRef, useState } from 'react';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { labelledBars, type SynthesisBar } from '@/domain/synthesis/series';
import { useElementWidth } from '@/lib/useElementWidth';

const HEIGHT = 260;
const MARGIN = { top: 16, right: 12, bottom: 52, left: 56 };
/** Room for one date under the time axis, in pixels. */
const TICK_ROOM = 64;

interface SynthesisBarsProps {
  bars: SynthesisBar[];
  /** What the chart shows (the group of its bars). */
  label: string;
  /** The time axis's name and the count axis's name. */
  axes: { time: string; count: string };
  /** The date under a bar (its interval's start). */
  tick(time: number): string;
  /** What a bar says when pointed at, focused or tapped: its interval and its count. */
  describe(bar: SynthesisBar): string;
  number(value: number): string;
}

/**
 * Lines with a value over the intervals, with both axes named (drawn with visx: scales and axes only, see
 * docs/decisions.md). Each bar shows its tooltip when focused, hovered or tapped; the table beside the chart says
 * the same to screen readers.
 */
export function SynthesisBars({ bars, label, axes, tick, describe, number }: SynthesisBarsProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  const [active, setActive] = useState<number | null>(null);
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<number>({ domain: bars.map((_, i) => i), range: [0, innerWidth], padding: 0.2 });
  const highest = Math.max(1, ...bars.map((bar) => bar.count));
  const y = scaleLinear<number>({ domain: [0, highest], range: [innerHeight, 0], nice: true });
  // Whole lines only: a count axis of 0.5 lines would read as nonsense.
  const counts = y.ticks(Math.min(5, highest)).filter(Number.isInteger);
  const shown = active !== null ? bars[active] : undefined;
  const tooltipLeft = active !== null ? MARGIN.left + (x(active) ?? 0) + x.bandwidth() / 2 : 0;
  const tooltipAlign = active === null ? '' : active < bars.length / 3 ? '-translate-x-4' : active >= (bars.length * 2) / 3 ? '-translate-x-[calc(100%-1rem)]' : '-translate-x-1/2';
  return (
    <div ref={box} className="relative w-full text-foreground" data-testid="synthesis-bars">
      {width > 0 ? (
        <svg width={width} height={HEIGHT} aria-hidden className="block overflow-visible">
          <Group left={MARGIN.left} top={MARGIN.top}>
            {counts.map((count) => (
              <line key={count} x1={0} x2={innerWidth} y1={y(count)} y2={y(count)} className="stroke-border" />
            ))}
            {bars.map((bar, i) => {
              const top = y(bar.count);
              const height = Math.max(bar.count > 0 ? 2 : 0, innerHeight - top);
              return (
                <rect
                  key={i}
                  x={x(i)}
                  y={innerHeight - height}
                  width={x.bandwidth()}
                  height={height}
                  rx={2}
                  className={active === i ? 'fill-primary/75 stroke-foreground stroke-2' : 'fill-primary'}
                />
              );
            })}
            <AxisLeft
              scale={y}
              tickValues={counts}
              tickFormat={(value) => number(Number(value))}
              stroke="currentColor"
              tickStroke="currentColor"
              tickLabelProps={{ fill: 'currentColor', fontSize: 12, textAnchor: 'end', dx: -4, dy: 4 }}
              label={axes.count}
              labelOffset={32}
              labelProps={{ fill: 'currentColor', fontSize: 13, textAnchor: 'middle' }}
            />
            <AxisBottom
              top={innerHeight}
              scale={x}
              tickValues={labelledBars(bars.length, innerWidth, TICK_ROOM)}
              tickFormat={(i) => tick(bars[i].from)}
              stroke="currentColor"
              tickStroke="currentColor"
              tickLabelProps={{ fill: 'currentColor', fontSize: 11, textAnchor: 'middle' }}
              label={axes.time}
              labelOffset={14}
              labelProps={{ fill: 'currentColor', fontSize: 13, textAnchor: 'middle' }}
            />
          </Group>
        </svg>
      ) : (
        <div style={{ height: HEIGHT }} />
      )}
      {/*
        A button over each column: the finger and the pointer reach a short bar as easily as a tall one, and the
        keyboard reaches the bars as one stop, arrows moving between them (the chart is passed with one Tab).
      */}
      <div
        role="group"
        aria-label={label}
        className="absolute"
        style={{ left: MARGIN.left, top: MARGIN.top, width: innerWidth, height: innerHeight }}
        onKeyDown={(event) => {
          const next = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
          const target = event.key === 'Home' ? 0 : event.key === 'End' ? bars.length - 1 : next !== undefined ? (active ?? 0) + next : null;
          if (target === null || target < 0 || target >= bars.length) return;
          event.preventDefault();
          event.currentTarget.querySelectorAll('button')[target]?.focus();
        }}
      >
        {bars.map((bar, i) => (
          <button
            key={i}
            type="button"
            tabIndex={i === (active ?? 0) ? 0 : -1}
            aria-label={describe(bar)}
            className="absolute top-0 h-full rounded-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
            style={{ left: x(i), width: x.bandwidth() }}
            data-testid="synthesis-bar"
            onFocus={() => setActive(i)}
            // Leaving a bar hides its tooltip only if it is still the one shown (focus may have moved on since).
            onBlur={() => setActive((shown) => (shown === i ? null : shown))}
            onPointerEnter={() => setActive(i)}
            onPointerLeave={() => setActive((shown) => (shown === i ? null : shown))}
            onClick={() => setActive(i)}
          />
        ))}
      </div>
      {shown ? (
        <div
          role="tooltip"
          // The focused bar's name says the same: read once.
          aria-hidden
          data-testid="synthesis-tooltip"
          className={`pointer-events-none absolute z-10 w-max max-w-48 -translate-y-full rounded-md border border-border bg-card px-2 py-1 text-sm shadow-md sm:max-w-none sm:whitespace-nowrap ${tooltipAlign}`}
          style={{ left: tooltipLeft, top: MARGIN.top + y(shown.count) - 6 }}
        >
          {describe(shown)}
        </div>
      ) : null}
    </div>
  );
}
