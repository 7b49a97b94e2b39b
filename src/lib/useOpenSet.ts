import { useCallback, useState } from 'react';

/** The set with `id` taken out when it holds it, put in when it does not. */
export const toggled = (set: ReadonlySet<string>, id: string): Set<string> =>
  new Set(set.has(id) ? [...set].filter((k) => k !== id) : [...set, id]);

/** Which of a list's items are open (rows, tree nodes): each opens and closes on its own. */
export function useOpenSet(): { isOpen(id: string): boolean; toggle(id: string): void } {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((id: string) => setOpen((set) => toggled(set, id)), []);
  return { isOpen: (id) => open.has(id), toggle };
}
