import type { DataEntry } from '@/domain/configuration/model';
import { rowDisplay } from '@/domain/rows/rowDisplay';
import { matchesSearch, searchWords } from '@/domain/text/searchFold';
import type { Suggestion } from '@/contract/references';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { cachedReferenceRows } from '@/offline/referenceCache';
import { isUnreachable } from '@/offline/queryCache';
import { useKeptQuery } from '@/offline/useKeptQuery';
import { SUGGESTIONS, fetchSuggestions } from '../api';

/** The server is asked once the typing pauses this long. */
const TYPING_PAUSE_MS = 250;

export interface ReferenceSuggestions {
  suggestions: Suggestion[];
  /** The text typed is being searched. */
  searching: boolean;
  /** Out of the server's reach and without the reference kept on the device: only what is typed can be added. */
  unavailable: boolean;
}

/**
 * Rows of a reference to offer for the text typed in a filter: found by the server (display labels in `locale`,
 * the caller's rows only), or, out of its reach, among the rows of the reference this device keeps, by the same
 * folding and matching (searchFold.ts); without such a copy, none, and the filter takes the text as typed.
 */
export function useReferenceSuggestions(
  application: string,
  reference: DataEntry | undefined,
  text: string,
  locale: string,
  defaultLanguage: string,
): ReferenceSuggestions {
  const settled = useDebouncedValue(text.trim(), TYPING_PAUSE_MS);
  const searched = searchWords(settled).length > 0 && reference !== undefined;
  const read = useKeptQuery<Suggestion[] | null>(
    ['application', application, 'suggestions', reference?.name ?? '', locale, settled],
    async (signal) => {
      try {
        return (await fetchSuggestions(application, reference!.name, settled, locale, signal)).suggestions;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        return keptSuggestions(application, reference!, settled, locale, defaultLanguage);
      }
    },
    { enabled: searched },
  );
  const typing = text.trim() !== settled;
  return {
    suggestions: searched && !typing ? (read.data ?? []) : [],
    searching: typing || read.loading,
    unavailable: read.data === null,
  };
}

/** The suggestions computed from the rows of the reference this device keeps; null without them. */
async function keptSuggestions(
  application: string,
  reference: DataEntry,
  text: string,
  locale: string,
  defaultLanguage: string,
): Promise<Suggestion[] | null> {
  const kept = await cachedReferenceRows(application, reference.name);
  if (!kept) return null;
  const words = searchWords(text);
  const found: Suggestion[] = [];
  for (const row of kept.rows) {
    const label = rowDisplay(reference, row.values, row.naturalKey, locale, defaultLanguage);
    if (matchesSearch(`${label} ${row.naturalKey}`, words)) found.push({ naturalKey: row.naturalKey, label });
  }
  return found.sort((a, b) => a.label.localeCompare(b.label, locale)).slice(0, SUGGESTIONS);
}
