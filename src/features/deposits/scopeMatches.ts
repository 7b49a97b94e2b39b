import type { KeptRow } from '@/domain/rows/filterRows';
import { foldForSearch, searchWords } from '@/domain/text/searchFold';
import { withoutLeadingNullParts } from '@/domain/keys';

/**
 * Above this many rows a scope reference is searched rather than listed: a native list of a few hundred lines is
 * still scrolled through on a tablet, one of thousands is not (and takes seconds to draw).
 */
export const SCOPE_LIST_MAX = 300;

/**
 * Matches shown at once under the search field, as many as the user search shows: the list is drawn whole, without
 * a scrolling box of its own (which the keyboard could not reach while the focus stays in the field).
 */
export const SCOPE_MATCHES_SHOWN = 8;

/** A row of a scope reference as the search offers it. */
export interface ScopeChoice {
  hierarchicalKey: string;
  label: string;
  /** The natural key as people write it (without its empty leading parts). */
  code: string;
  /** The labels of the row's parents, outermost first: two sites of one name under two projects differ by them. */
  parents: string[];
  /** Folded once, not at each keystroke. */
  foldedLabel: string;
  foldedWords: string[];
}

/**
 * The rows in tree order (parents before their children, as the native list orders them), each with what the search
 * compares: its label, its code and its parents' labels. `labelOf` names a parent by its hierarchical key.
 */
export function scopeChoices(
  rows: readonly KeptRow[],
  display: (row: KeptRow) => string,
  labelOf: (hierarchicalKey: string) => string | undefined,
): ScopeChoice[] {
  return [...rows]
    .sort((a, b) => a.hierarchicalKey.localeCompare(b.hierarchicalKey))
    .map((row) => {
      const labels = row.hierarchicalKey.split('.');
      const parents = labels
        .slice(0, -1)
        .map((_, i) => labelOf(labels.slice(0, i + 1).join('.')) ?? codeOfLabel(labels[i]));
      const label = display(row);
      const code = withoutLeadingNullParts(row.naturalKey);
      return {
        hierarchicalKey: row.hierarchicalKey,
        label,
        code,
        parents,
        foldedLabel: foldForSearch(label),
        foldedWords: foldForSearch([label, code, ...parents].join(' '))
          .split(/\s+/)
          .filter((word) => word !== ''),
      };
    });
}

/** A parent the device has no row of is named by its code (`projectsKalps` → `alps`). */
function codeOfLabel(label: string): string {
  return withoutLeadingNullParts(label.slice(label.indexOf('K') + 1));
}

/**
 * The choices a text finds, at most `limit`, and how many it finds in all. Every word typed must begin a word of the
 * label, the code or a parent's label (case and accents ignored, as the reference filters match); labels beginning
 * with the text come first, then the others, each in tree order. No text offers the first rows of the tree.
 */
export function scopeMatches(
  choices: readonly ScopeChoice[],
  text: string,
  limit = SCOPE_MATCHES_SHOWN,
): { matches: ScopeChoice[]; total: number } {
  const words = searchWords(text);
  if (words.length === 0) return { matches: choices.slice(0, limit), total: choices.length };
  const beginning = words.join(' ');
  const first: ScopeChoice[] = [];
  const others: ScopeChoice[] = [];
  for (const choice of choices) {
    if (!words.every((word) => choice.foldedWords.some((own) => own.startsWith(word)))) continue;
    if (choice.foldedLabel.startsWith(beginning)) first.push(choice);
    else others.push(choice);
  }
  return { matches: [...first, ...others].slice(0, limit), total: first.length + others.length };
}
