import { useState, type KeyboardEvent } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';

interface TagInputProps {
  values: string[];
  onAdd(value: string): void;
  onRemove(value: string): void;
  label: string;
  removeLabel: (value: string) => string;
  placeholder?: string;
  /** Values that differ from the stored state, shown highlighted. */
  changed?: (value: string) => boolean;
  /** A datalist offering values as the user types. */
  listId?: string;
  /** Values that cannot be saved, shown as errors. */
  invalid?: (value: string) => boolean;
  /** The id of the text that says what is wrong with the invalid values. */
  describedBy?: string;
}

/** Chips with a remove button each, and a field that adds one on Enter or comma. */
export function TagInput({
  values,
  onAdd,
  onRemove,
  label,
  removeLabel,
  placeholder,
  changed,
  listId,
  invalid,
  describedBy,
}: TagInputProps) {
  const [text, setText] = useState('');
  const commit = () => {
    if (text.trim() !== '') onAdd(text.trim());
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && text === '' && values.length > 0) {
      onRemove(values[values.length - 1]);
    }
  };
  return (
    <div
      className={cn(
        'flex min-h-11 flex-wrap items-center gap-1 rounded-md border border-input bg-card p-1',
        values.some((value) => invalid?.(value)) && 'border-destructive',
      )}
    >
      {values.map((value) => (
        <span
          key={value}
          data-invalid={invalid?.(value) ? 'true' : undefined}
          className={cn(
            'inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pl-3 text-sm',
            changed?.(value) && 'bg-accent',
            invalid?.(value) && 'bg-destructive/15 text-destructive ring-1 ring-destructive',
          )}
        >
          <code>{value}</code>
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-full hover:bg-black/10"
            aria-label={removeLabel(value)}
            onClick={() => onRemove(value)}
          >
            <X className="size-4" aria-hidden />
          </button>
        </span>
      ))}
      <input
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={describedBy ? true : undefined}
        list={listId}
        className="h-9 min-w-32 flex-1 bg-transparent px-2 outline-none"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={commit}
      />
    </div>
  );
}
