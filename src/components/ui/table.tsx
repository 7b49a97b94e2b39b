import { useRef, type HTMLAttributes, type ReactNode, type TdHTMLAttributes, type ThHTMLAttributes } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useScrollEdges } from '@/lib/useScrollEdges';
import { Button } from './button';

/**
 * Tables scroll sideways inside their own box, never the whole page. Their words are not cut anywhere (as in the
 * cards holding them, `wrap-anywhere`): that let a phone squeeze each column to one letter a line.
 */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  const box = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(box);
  return (
    // Scrolling sideways, it takes the keyboard's focus so that its hidden columns can be reached without a swipe.
    <div
      ref={box}
      tabIndex={edges.left || edges.right ? 0 : undefined}
      className="w-full overflow-x-auto rounded-lg border border-border bg-card focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className={cn('w-full border-collapse text-left text-base wrap-break-word', className)} {...props} />
    </div>
  );
}

export const TableHeader = (props: HTMLAttributes<HTMLTableSectionElement>) => (
  <thead className="bg-muted" {...props} />
);
export const TableBody = (props: HTMLAttributes<HTMLTableSectionElement>) => (
  <tbody className="divide-y divide-border" {...props} />
);
export const TableRow = ({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) => (
  <tr className={cn('align-middle', className)} {...props} />
);
export const TableHead = ({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th scope="col" className={cn('px-3 py-3 text-sm font-semibold text-muted-foreground', className)} {...props} />
);
export const TableCell = ({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn('px-3 py-2', className)} {...props} />
);

/**
 * For the last column of buttons: when the table scrolls sideways (on a phone), it stays in sight at the right end.
 * Give its cells their background too (`bg-card`, `bg-muted` in the header) so the scrolled columns pass under it.
 */
export const stickyEnd = 'sticky right-0 max-md:shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]';

interface ScrollingTableProps extends HTMLAttributes<HTMLTableElement> {
  /** Said above the table while columns are hidden past an edge, with buttons that scroll by a screen. */
  cue: { text: ReactNode; left: string; right: string };
}

/**
 * A table of data wider and longer than the screen: it scrolls inside a box no taller than the window, its header and
 * first column stay in sight ({@link stickyStart}), and while columns are hidden past an edge a shadow marks that edge
 * and a line above says so, with buttons for those without a sideways swipe or wheel.
 */
export function ScrollingTable({ className, cue, ...props }: ScrollingTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(box);
  const scroll = (direction: 1 | -1) =>
    box.current?.scrollBy({ left: direction * box.current.clientWidth * 0.8, behavior: 'smooth' });
  return (
    <div>
      {edges.left || edges.right ? (
        <div
          className="mb-1 flex items-center justify-end gap-1 text-sm text-muted-foreground"
          data-testid="scroll-cue"
        >
          <span>{cue.text}</span>
          <Button variant="ghost" size="icon" aria-label={cue.left} disabled={!edges.left} onClick={() => scroll(-1)}>
            <ChevronLeft aria-hidden />
          </Button>
          <Button variant="ghost" size="icon" aria-label={cue.right} disabled={!edges.right} onClick={() => scroll(1)}>
            <ChevronRight aria-hidden />
          </Button>
        </div>
      ) : null}
      <div
        ref={box}
        data-more-left={edges.left}
        data-more-right={edges.right}
        className="group/scroll max-h-[75dvh] w-full overflow-auto overscroll-x-contain rounded-lg border border-border bg-card"
      >
        <table
          className={cn(
            'w-full border-separate border-spacing-0 text-left text-base wrap-break-word [&_td]:border-b [&_td]:border-border',
            className,
          )}
          {...props}
        />
      </div>
    </div>
  );
}

/** The header of a {@link ScrollingTable}: it stays at the top of the box. */
export const StickyTableHeader = (props: HTMLAttributes<HTMLTableSectionElement>) => (
  <thead className="sticky top-0 z-20 bg-muted" {...props} />
);

/**
 * For the first column of a {@link ScrollingTable}: it stays at the left edge, shadowed while columns pass under it.
 * Give its cells their background too (`bg-card`, `bg-muted` in the header).
 */
export const stickyStart =
  'sticky left-0 z-10 group-data-[more-left=true]/scroll:shadow-[6px_0_6px_-6px_rgb(0_0_0/0.25)]';

/** {@link stickyEnd} in a {@link ScrollingTable}: shadowed only while columns are hidden under it. */
export const stickyEndScrolling =
  'sticky right-0 z-10 group-data-[more-right=true]/scroll:shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.25)]';
