import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, following its changes (a turned tablet, a resized window). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}
