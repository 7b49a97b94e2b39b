import { forwardRef, type ComponentPropsWithoutRef, type ElementRef } from 'react';
import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { cn } from '@/lib/cn';

export const RadioGroup = forwardRef<
  ElementRef<typeof RadioGroupPrimitive.Root>,
  ComponentPropsWithoutRef<typeof RadioGroupPrimitive.Root>
>(({ className, ...props }, ref) => (
  <RadioGroupPrimitive.Root ref={ref} className={cn('flex flex-wrap gap-x-4 gap-y-1', className)} {...props} />
));
RadioGroup.displayName = 'RadioGroup';

/** A round 24 px choice with its label, the whole line a 44 px touch target. */
export const RadioGroupItem = forwardRef<
  ElementRef<typeof RadioGroupPrimitive.Item>,
  ComponentPropsWithoutRef<typeof RadioGroupPrimitive.Item> & { label: string }
>(({ className, label, ...props }, ref) => (
  <label className="flex min-h-11 cursor-pointer items-center gap-2">
    <RadioGroupPrimitive.Item
      ref={ref}
      className={cn(
        'inline-flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-input bg-card focus-visible:outline-2 focus-visible:outline-ring data-[state=checked]:border-primary',
        className,
      )}
      {...props}
    >
      <RadioGroupPrimitive.Indicator className="size-3 rounded-full bg-primary" />
    </RadioGroupPrimitive.Item>
    {label}
  </label>
));
RadioGroupItem.displayName = 'RadioGroupItem';
