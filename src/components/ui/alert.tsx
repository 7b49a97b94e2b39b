import type { HTMLAttributes } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '@/lib/cn';

const alertVariants = cva('relative w-full rounded-lg border p-4 text-base wrap-anywhere [&_svg]:size-5', {
  variants: {
    variant: {
      info: 'border-border bg-card',
      success: 'border-success/40 bg-success/10 text-success',
      warning: 'border-warning/40 bg-accent/20 text-warning',
      destructive: 'border-destructive/40 bg-destructive/10 text-destructive',
    },
  },
  defaultVariants: { variant: 'info' },
});

export function Alert({
  className,
  variant,
  ...props
}: HTMLAttributes<HTMLDivElement> & VariantProps<typeof alertVariants>) {
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    />
  );
}
