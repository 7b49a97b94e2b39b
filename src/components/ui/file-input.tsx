import { forwardRef, useState, type InputHTMLAttributes } from 'react';
import { useLingui } from '@lingui/react/macro';
import { FileUp } from 'lucide-react';
import { cn } from '@/lib/cn';

export interface FileInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value'> {
  /** The name shown as chosen when the file comes from elsewhere (a pending change reopened); else the input's own. */
  fileName?: string | null;
}

/**
 * A file input whose words follow the interface's language: the browser's own button and "no file" text follow the
 * browser's (an English "Choose File" in a French form). The real input lies over the whole box, transparent, so a
 * tap anywhere opens the picker, the keyboard reaches it, and screen readers and tests find it by its label.
 */
export const FileInput = forwardRef<HTMLInputElement, FileInputProps>(
  ({ className, fileName, disabled, onChange, ...props }, ref) => {
    const { t } = useLingui();
    const [chosen, setChosen] = useState<string | null>(null);
    const shown = chosen ?? fileName ?? null;
    return (
      <div
        className={cn(
          'relative flex min-h-11 w-full min-w-0 items-center gap-3 rounded-md border border-input bg-card px-1.5 py-1 has-[:focus-visible]:outline-[3px] has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-solid',
          disabled && 'opacity-50',
          className,
        )}
      >
        <input
          ref={ref}
          type="file"
          disabled={disabled}
          className="absolute inset-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
          onChange={(event) => {
            setChosen(event.target.files?.[0]?.name ?? null);
            onChange?.(event);
          }}
          {...props}
        />
        <span
          aria-hidden
          className="pointer-events-none inline-flex min-h-9 shrink-0 items-center gap-2 rounded bg-secondary px-3 text-sm font-medium text-secondary-foreground"
        >
          <FileUp className="size-4" />
          {t`Choose a file`}
        </span>
        <span
          aria-hidden
          className={cn('pointer-events-none min-w-0 truncate text-sm', !shown && 'text-muted-foreground')}
        >
          {shown ?? t`No file chosen`}
        </span>
      </div>
    );
  },
);
FileInput.displayName = 'FileInput';
