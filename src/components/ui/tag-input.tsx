import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { X } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A value offered as the user types: added as `value`, shown as `label`. */
export interface TagSuggestion {
  value: string;
  label: string;
}

interface TagInputProps {
  values: string[];
  /** Adds a value typed, or one picked among the suggestions (then with its label). */
  onAdd(value: string, label?: string): void;
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
  /** How a value's chip reads (a label instead of a code); the value itself by default. */
  display?: (value: string) => string;
  /** Values offered for the text typed, in a list under the field (a combobox): arrows and Enter, or a tap. */
  suggestions?: readonly TagSuggestion[];
  /** The text typed, as it changes: for the suggestions to follow it. */
  onTextChange?(text: string): void;
  /** The name of the list of suggestions, and what it says when the text typed finds none (or is being searched). */
  suggestionsLabel?: string;
  suggestionsNote?: ReactNode;
}

/** Chips with a remove button each, and a field that adds one on Enter or comma, or by a suggestion picked. */
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
  display,
  suggestions,
  onTextChange,
  suggestionsLabel,
  suggestionsNote,
}: TagInputProps) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const listboxId = useId();
  const offered = suggestions ?? [];
  const shown = open && text.trim() !== '' && (offered.length > 0 || suggestionsNote !== undefined);
  const change = (next: string) => {
    setText(next);
    setActive(-1);
    setOpen(true);
    onTextChange?.(next);
  };
  const commit = () => {
    if (text.trim() !== '') onAdd(text.trim());
    change('');
    setOpen(false);
  };
  const pick = (suggestion: TagSuggestion) => {
    onAdd(suggestion.value, suggestion.label);
    change('');
    setOpen(false);
  };
  const combobox = suggestions !== undefined;
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!shown && combobox && event.key === 'ArrowDown' && text.trim() !== '') {
      event.preventDefault();
      setOpen(true);
    } else if (shown && offered.length > 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const last = offered.length - 1;
      if (event.key === 'ArrowDown') setActive((current) => (current >= last ? 0 : current + 1));
      else setActive((current) => (current <= 0 ? last : current - 1));
    } else if (event.key === 'Escape' && shown) {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      if (shown && active >= 0 && active < offered.length) pick(offered[active]);
      else commit();
    } else if (event.key === 'Backspace' && text === '' && values.length > 0) {
      onRemove(values[values.length - 1]);
    }
  };
  return (
    <div className="relative">
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
            title={display && display(value) !== value ? value : undefined}
            className={cn(
              'inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pl-3 text-sm',
              changed?.(value) && 'bg-accent',
              invalid?.(value) && 'bg-destructive/15 text-destructive ring-1 ring-destructive',
            )}
          >
            {display && display(value) !== value ? <span>{display(value)}</span> : <code>{value}</code>}
            <button
              type="button"
              className="inline-flex size-9 items-center justify-center rounded-full hover:bg-black/10"
              aria-label={removeLabel(display?.(value) ?? value)}
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
          role={combobox ? 'combobox' : undefined}
          aria-autocomplete={combobox ? 'list' : undefined}
          aria-expanded={combobox ? shown : undefined}
          aria-controls={combobox ? listboxId : undefined}
          aria-activedescendant={shown && active >= 0 ? `${listboxId}-${active}` : undefined}
          autoComplete={combobox ? 'off' : undefined}
          className="h-9 min-w-32 flex-1 bg-transparent px-2 outline-none"
          value={text}
          placeholder={placeholder}
          onChange={(event) => change(event.target.value)}
          onKeyDown={onKeyDown}
          onBlur={commit}
        />
      </div>
      {combobox ? (
        <div
          hidden={!shown}
          className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border border-border bg-card p-1 text-card-foreground shadow-md"
        >
          <ul id={listboxId} role="listbox" aria-label={suggestionsLabel ?? label} hidden={offered.length === 0}>
            {offered.map((suggestion, i) => (
              <li
                key={suggestion.value}
                id={`${listboxId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={cn(
                  'flex min-h-11 cursor-pointer flex-col justify-center rounded-sm px-3 py-1',
                  i === active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
                )}
                // Picked before the field loses the focus (which would add the text typed instead).
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(suggestion);
                }}
              >
                <span>{suggestion.label}</span>
                {suggestion.label !== suggestion.value ? (
                  <span className="text-xs text-muted-foreground">{suggestion.value}</span>
                ) : null}
              </li>
            ))}
          </ul>
          {offered.length === 0 && suggestionsNote !== undefined ? (
            <p className="flex min-h-11 items-center px-3 text-sm text-muted-foreground">{suggestionsNote}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
