/**
 * A stored row written back as the texts of a CSV file that the CSV engine reads into the same row, natural key
 * included. Used by the backup and the exports, so that what they write loads again as it was.
 *
 * Values are written as `cellText` writes them, except references. A row stores the hierarchical key of each row
 * it designates, but its natural key was made from the texts its file gave (§9.1): `oir` and `NULL_KEY__oir` name
 * the same site and make different keys for the rows naming it (`oir__p1`, `NULL_KEY__oir__p1`). So a reference is
 * written with one of the texts the engine resolves to the same row (`ReferenceIndex.spellings`, the way people
 * write it first), and, for the components of the natural key, with the first of those that gives back the row's
 * own natural key.
 */
import type { Checker, Component, DataEntry } from '../configuration/model';
import type { ReferenceIndex } from '../csv/references';
import { compositeKey, LabelError } from '../keys';
import { cellText } from './cellText';

/** A stored row: its natural key and its values. */
export interface WrittenRow {
  naturalKey: string;
  values: Record<string, unknown>;
}

/**
 * The checker whose result a component stores: its own, else that of the last rule of `OA_validations` on it
 * (the CSV engine stores what a reference or date rule gives a component that has no checker).
 */
export function storedChecker(entry: DataEntry, component: Component): Checker | null {
  if (component.checker) return component.checker;
  let checker: Checker | null = null;
  for (const validation of entry.validations) {
    if (validation.checker.kind !== 'expression' && validation.components.includes(component.key))
      checker = validation.checker;
  }
  return checker;
}

/** Components read from a file's texts: cells, and constants above the header. */
const isWritten = (component: Component) => component.kind === 'basic' || component.kind === 'constant';

/** The references whose rows an entry's written components designate (read by `RowTexts`). */
export function writtenReferences(entry: DataEntry): string[] {
  const names = entry.components
    .filter(isWritten)
    .map((component) => storedChecker(entry, component))
    .flatMap((checker) => (checker?.kind === 'reference' ? [checker.reference] : []));
  return [...new Set(names)];
}

/**
 * The rows of each reference (by hierarchical key) that `rows` designate through the entry's written components and
 * its natural key's (a computed one is spelled too, to find the texts that give back the row's key): with the rows
 * those rows' spellings may designate (`spellingKeys`), all a `RowTexts` of `rows` reads.
 */
export function designatedRows(entry: DataEntry, rows: readonly WrittenRow[]): Map<string, Set<string>> {
  const designated = new Map<string, Set<string>>();
  const spelled = entry.components.filter(
    (component) => isWritten(component) || entry.naturalKey.includes(component.key),
  );
  for (const component of spelled) {
    const checker = storedChecker(entry, component);
    if (checker?.kind !== 'reference') continue;
    let keys = designated.get(checker.reference);
    if (!keys) designated.set(checker.reference, (keys = new Set()));
    for (const row of rows) {
      const value = row.values[component.key];
      for (const item of Array.isArray(value) ? value : [value])
        if (typeof item === 'string' && item !== '') keys.add(item);
    }
  }
  return designated;
}

/** Combinations of spellings tried per row before writing the first one (a key has few reference components). */
const MAX_TRIES = 256;

export class RowTexts {
  private readonly checkers: Map<string, Checker | null>;
  private readonly written: Component[];
  /** Reference → hierarchical key → its spellings. */
  private readonly spelled = new Map<string, Map<string, string[]>>();

  /** `references` gives the stored rows of each of `writtenReferences(entry)`, the entry itself included when it refers to itself. */
  constructor(
    private readonly entry: DataEntry,
    private readonly references: (name: string) => ReferenceIndex,
  ) {
    this.checkers = new Map(entry.components.map((component) => [component.key, storedChecker(entry, component)]));
    this.written = entry.components.filter(isWritten);
  }

  /** The text of one value of a component, spelled the way people write it first. */
  cell(component: Component, value: unknown): string {
    return this.choices(component.key, value)[0];
  }

  /** Texts of the written components of a row (component key → text): the same row, same natural key, once read. */
  row(row: WrittenRow): Record<string, string> {
    const texts: Record<string, string> = {};
    const parts: string[][] = [];
    let alternatives = false;
    this.entry.naturalKey.forEach((key, index) => {
      const value = row.values[key];
      // The engine keys dates by their stored value, whatever the text.
      parts[index] = typeof value === 'string' && value.startsWith('date:') ? [value] : this.choices(key, value);
      if (parts[index].length > 1) alternatives = true;
    });
    for (const component of this.written) texts[component.key] = this.cell(component, row.values[component.key]);
    if (!alternatives) return texts;
    // Only references have other spellings: the first combination that gives back the row's key is written.
    const found = matchingParts(parts, row.naturalKey);
    if (found)
      this.entry.naturalKey.forEach(
        (key, index) => parts[index].length > 1 && key in texts && (texts[key] = found[index]),
      );
    return texts;
  }

  /** The texts a value may be written as, the first preferred (one, except for references). */
  private choices(key: string, value: unknown): string[] {
    const checker = this.checkers.get(key) ?? null;
    if (checker?.kind !== 'reference' || value === null || value === undefined || value === '')
      return [cellText(value, checker)];
    if (!Array.isArray(value)) return this.spellings(checker.reference, String(value)) ?? [cellText(value, checker)];
    // A list is written with the same kind of spelling for each of its rows.
    const lists = value.map((item) =>
      item === '' ? [''] : (this.spellings(checker.reference, String(item)) ?? [cellText(item, checker)]),
    );
    const kinds = Math.max(1, ...lists.map((list) => list.length));
    return [
      ...new Set(
        Array.from({ length: kinds }, (_, kind) =>
          lists.map((list) => list[Math.min(kind, list.length - 1)]).join(','),
        ),
      ),
    ];
  }

  private spellings(reference: string, hierarchicalKey: string): string[] | undefined {
    let known = this.spelled.get(reference);
    if (!known) this.spelled.set(reference, (known = new Map()));
    let texts = known.get(hierarchicalKey);
    if (!texts) known.set(hierarchicalKey, (texts = this.references(reference).spellings(hierarchicalKey)));
    return texts.length > 0 ? texts : undefined;
  }
}

/** The natural key the engine makes of these texts, or null when it makes none. */
function keyOf(parts: readonly string[]): string | null {
  try {
    return compositeKey(parts);
  } catch (thrown) {
    if (thrown instanceof LabelError) return null;
    throw thrown;
  }
}

/** The first combination of choices (in order of preference) whose key is `naturalKey`. */
function matchingParts(parts: readonly string[][], naturalKey: string): string[] | null {
  const at = parts.map(() => 0);
  for (let tries = 0; tries < MAX_TRIES; tries += 1) {
    const texts = parts.map((choices, index) => choices[at[index]]);
    if (keyOf(texts) === naturalKey) return texts;
    let index = parts.length - 1;
    while (index >= 0 && at[index] === parts[index].length - 1) at[index--] = 0;
    if (index < 0) return null;
    at[index] += 1;
  }
  return null;
}
