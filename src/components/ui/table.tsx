import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** Tables scroll sideways inside their own box, never the whole page. */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="w-full overflow-x-auto rounded-lg border border-border bg-card">
      <table className={cn('w-full border-collapse text-left text-base', className)} {...props} />
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
