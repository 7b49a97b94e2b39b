import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A value offered under the field: `label` over `detail` (its code, where it lies). */
export interface SearchOption {
  value: string;
  label: string;
  detail?: string;
}

interface SearchSelectProps {
  /** Given by `FormField`, so that its label names the field. */
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** The label of the value chosen, shown while the field is not being typed in ('' when none is). */
  selectedLabel: string;
  /** The values the text typed finds, already bounded by the caller. */
  options: readonly SearchOption[];
  /** The text typed, as it changes ('' when the field opens). */
  onQueryChange(text: string): void;
  /** A value picked, or '' when the text was emptied. */
  onPick(value: string): void;
  /** The name of the list of options. */
  listLabel: string;
  /** Said under the options (how many the text finds), and to screen readers as it changes. */
  note?: ReactNode;
  placeholder?: string;
}

/**
 * One value among many (thousands of rows), found by typing: a combobox whose list shows the options the caller
 * found for the text (a few: the list has no scrolling box of its own). Arrows and Enter, or a tap, pick; Escape closes; emptying the field and leaving it clears the
 * value. Each option is at least 44 px high.
 */
export function SearchSelect({
  id,
  selectedLabel,
  options,
  onQueryChange,
  onPick,
  listLabel,
  note,
  placeholder,
  ...aria
}: SearchSelectProps) {
  // null while the list is closed; `typed` once the text was changed since it opened.
  const [text, setText] = useState<string | null>(null);
  const [typed, setTyped] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listboxId = useId();
  const open = text !== null;
  const type = (next: string) => {
    setText(next);
    setTyped(true);
    setActive(-1);
    onQueryChange(next);
  };
  // Opens on every option, the label chosen selected so that typing replaces it.
  const openAll = () => {
    setText(selectedLabel);
    setTyped(false);
    setActive(-1);
    onQueryChange('');
    input.current?.select();
  };
  const close = () => {
    setText(null);
    setActive(-1);
  };
  const pick = (option: SearchOption) => {
    onPick(option.value);
    close();
  };
  // The option moved to by the arrows stays in sight (the list may reach below the window).
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listboxId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listboxId]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return openAll();
      const last = options.length - 1;
      if (last < 0) return;
      if (event.key === 'ArrowDown') setActive((current) => (current >= last ? 0 : current + 1));
      else setActive((current) => (current <= 0 ? last : current - 1));
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      // The only option found needs no arrow.
      const chosen = options[active] ?? (options.length === 1 ? options[0] : undefined);
      if (chosen) pick(chosen);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };
  return (
    <div className="relative">
      <input
        ref={input}
        id={id}
        {...aria}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listboxId}
        aria-activedescendant={open && active >= 0 ? `${listboxId}-${active}` : undefined}
        autoComplete="off"
        className="flex h-11 w-full rounded-md border border-input bg-card py-2 pl-3 pr-10 text-base placeholder:text-muted-foreground aria-[invalid=true]:border-destructive"
        value={text ?? selectedLabel}
        placeholder={placeholder}
        onFocus={openAll}
        onClick={() => {
          if (!open) openAll();
        }}
        onChange={(event) => type(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (typed && text?.trim() === '' && selectedLabel !== '') onPick('');
          close();
        }}
      />
      <ChevronDown className="pointer-events-none absolute right-3 top-3 size-5 text-muted-foreground" aria-hidden />
      <div
        hidden={!open}
        className="absolute inset-x-0 top-full z-20 mt-1 rounded-md border border-border bg-card p-1 text-card-foreground shadow-md"
      >
        <ul id={listboxId} role="listbox" aria-label={listLabel}>
          {options.map((option, i) => (
            <li
              key={option.value}
              id={`${listboxId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn(
                'flex min-h-11 cursor-pointer flex-col justify-center rounded-sm px-3 py-1 wrap-anywhere',
                i === active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
              )}
              // Picked before the field loses the focus (which would close the list first).
              onMouseDown={(event) => {
                event.preventDefault();
                pick(option);
              }}
            >
              <span>{option.label}</span>
              {option.detail ? <span className="text-sm text-muted-foreground">{option.detail}</span> : null}
            </li>
          ))}
        </ul>
        <p aria-live="polite" className={cn('px-3 text-sm text-muted-foreground', note ? 'py-2' : 'sr-only')}>
          {open ? note : null}
        </p>
      </div>
    </div>
  );
}
