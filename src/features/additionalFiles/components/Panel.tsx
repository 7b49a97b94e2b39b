import type { ReactNode, SyntheticEvent } from 'react';
import { ChevronRight } from 'lucide-react';

/** A section that folds: its title row (44 px high) shows a chevron turned down while it is open. */
export function Panel({
  title,
  open,
  onToggle,
  children,
  testId,
}: {
  title: ReactNode;
  open?: boolean;
  onToggle?(open: boolean): void;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <details
      className="group rounded-lg border border-border bg-card"
      open={open}
      data-testid={testId}
      onToggle={(event: SyntheticEvent<HTMLDetailsElement>) => onToggle?.(event.currentTarget.open)}
    >
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 font-semibold [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-5 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
        {title}
      </summary>
      <div className="grid gap-4 p-4 pt-0">{children}</div>
    </details>
  );
}
