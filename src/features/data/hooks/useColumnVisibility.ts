import { useCallback, useState } from 'react';

export interface HiddenColumns {
  /** Domain tags switched off: every column carrying one is hidden. */
  tags: string[];
  /** Columns switched off one by one, by component key. */
  columns: string[];
}

/** What decides whether a column shows: its key and its domain tags. */
type ColumnOf = { key: string; tags: { domain: string[] } };

const NONE: HiddenColumns = { tags: [], columns: [] };
const storageKey = (application: string, entry: string) => `terrain.columns.${application}.${entry}`;

function read(key: string): HiddenColumns {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<HiddenColumns> | null;
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
    return kept ? { tags: strings(kept.tags), columns: strings(kept.columns) } : NONE;
  } catch {
    // A choice the device cannot read back (storage refused, edited by hand) is no choice: every column shows.
    return NONE;
  }
}

/**
 * The columns a person switched off in one table, remembered on the device per application and entry: the table
 * opens again as it was left, online or not.
 */
export function useColumnVisibility(application: string, entry: string) {
  const key = storageKey(application, entry);
  const [state, setState] = useState(() => ({ key, hidden: read(key) }));
  // Another table opened in the same page: its own choice, read once.
  const hidden = state.key === key ? state.hidden : read(key);
  const change = useCallback(
    (next: HiddenColumns) => {
      setState({ key, hidden: next });
      try {
        if (next.tags.length === 0 && next.columns.length === 0) localStorage.removeItem(key);
        else localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or refused: the choice holds for this visit only.
      }
    },
    [key],
  );
  const isTagHidden = (component: ColumnOf) => component.tags.domain.some((tag) => hidden.tags.includes(tag));
  const isShown = (component: ColumnOf) => !hidden.columns.includes(component.key) && !isTagHidden(component);
  return { hidden, change, isShown, isTagHidden };
}
