import { cloneElement, useId, type ReactElement } from 'react';
import { Label } from './label';

interface FormFieldProps {
  label: string;
  /** The translated problem with the value, shown under the field and announced to screen readers. */
  error?: string;
  hint?: string;
  children: ReactElement<Record<string, unknown>>;
}

/** A label, a control and its message, wired together for assistive technology. */
export function FormField({ label, error, hint, children }: FormFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    // A long label or option (one long word) wraps or narrows the control rather than widen the page.
    <div className="grid min-w-0 grid-cols-1 gap-1.5">
      <Label htmlFor={id} className="wrap-anywhere">
        {label}
      </Label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error || hint ? messageId : undefined,
      })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
