import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '@/lib/cn';

/** A bar from 0 to 1; `label` names what is progressing for screen readers. */
export function Progress({ value, label, className }: { value: number; label: string; className?: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <ProgressPrimitive.Root
      value={percent}
      aria-label={label}
      className={cn('relative h-2.5 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-primary transition-[width] duration-200"
        style={{ width: `${percent}%` }}
      />
    </ProgressPrimitive.Root>
  );
}
