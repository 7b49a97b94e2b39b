/**
 * Look-up of reference rows by what a CSV cell may hold (§10.3): the hierarchical key of the row, its natural key,
 * the text that escapes to its natural key (`Massif Central` → `massif_central`), or its natural key without its
 * leading empty parts (`oir` for `NULL_KEY__oir`, and `NULL_KEY__scarff__p1` for `scarff__p1`). Each reference is
 * indexed once per file and every distinct cell text is resolved once.
 */
import { LabelError, escapeLabel, withEachLeadingNullParts, withoutLeadingNullParts } from '../keys';
import { expressionsOf } from '../configuration/checkedAgainst';
import type { DataEntry } from '../configuration/model';
import type { StoredRow } from './types';

const AMBIGUOUS: StoredRow = { naturalKey: '', hierarchicalKey: '', values: {} };

export class ReferenceIndex {
  private readonly byHierarchicalKey = new Map<string, StoredRow>();
  private readonly byNaturalKey = new Map<string, StoredRow>();
  private readonly byShortKey = new Map<string, StoredRow>();
  private readonly resolved = new Map<string, StoredRow | null>();
  private readonly rows: StoredRow[] = [];

  constructor(
    readonly name: string,
    rows: Iterable<StoredRow> = [],
  ) {
    for (const row of rows) this.add(row);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Adds a row; a later row with the same keys replaces an earlier one (rows of the file over stored rows). */
  add(row: StoredRow): void {
    this.rows.push(row);
    this.byHierarchicalKey.set(row.hierarchicalKey, row);
    this.byNaturalKey.set(row.naturalKey, row);
    const short = withoutLeadingNullParts(row.naturalKey);
    if (short !== row.naturalKey) {
      const known = this.byShortKey.get(short);
      this.byShortKey.set(short, known === undefined || known.naturalKey === row.naturalKey ? row : AMBIGUOUS);
    }
    if (this.resolved.size > 0) this.resolved.clear();
  }

  /** The row a cell designates, or null. */
  resolve(text: string): StoredRow | null {
    const known = this.resolved.get(text);
    if (known !== undefined) return known;
    const row = this.find(text);
    if (this.resolved.size < 200_000) this.resolved.set(text, row);
    return row;
  }

  private find(text: string): StoredRow | null {
    const direct = this.byHierarchicalKey.get(text) ?? this.byNaturalKey.get(text);
    if (direct) return direct;
    let escaped = text;
    try {
      escaped = escapeLabel(text);
    } catch (thrown) {
      if (!(thrown instanceof LabelError)) throw thrown;
    }
    const byEscaped = this.byNaturalKey.get(escaped);
    if (byEscaped) return byEscaped;
    const short = withoutLeadingNullParts(escaped);
    const byShort = this.byNaturalKey.get(short) ?? this.byShortKey.get(short);
    return byShort && byShort !== AMBIGUOUS ? byShort : null;
  }

  /**
   * The texts a file may give for the row of a hierarchical key that this index reads back as that row, the way
   * people write them first: its natural key without its leading empty parts (`oir` for `NULL_KEY__oir`), its
   * natural key, its hierarchical key. Empty for a row the index does not hold.
   */
  spellings(hierarchicalKey: string): string[] {
    const row = this.byHierarchicalKey.get(hierarchicalKey);
    if (!row) return [];
    const texts = new Set([withoutLeadingNullParts(row.naturalKey), row.naturalKey, row.hierarchicalKey]);
    return [...texts].filter((text) => this.resolve(text)?.hierarchicalKey === hierarchicalKey);
  }

  /** Natural keys of the first rows, to show what the reference holds (errors list at most `count`). */
  sampleNaturalKeys(count: number): string[] {
    const keys: string[] = [];
    for (let index = 0; index < this.rows.length && keys.length < count; index += 1)
      keys.push(this.rows[index].naturalKey);
    return keys;
  }

  allRows(): readonly StoredRow[] {
    return this.rows;
  }
}

/**
 * Every key, natural or hierarchical, that {@link ReferenceIndex.resolve} may match `text` with in a reference whose
 * natural keys have at most `keyParts` parts: the rows holding one of these keys resolve `text` as the whole reference
 * would, so a single value is checked without reading the reference.
 */
export function keysDesignatedBy(text: string, keyParts: number): string[] {
  const keys = new Set([text]);
  let escaped = text;
  try {
    escaped = escapeLabel(text);
  } catch (thrown) {
    if (!(thrown instanceof LabelError)) throw thrown;
  }
  keys.add(escaped);
  for (const key of withEachLeadingNullParts(escaped, Math.max(keyParts, 2))) keys.add(key);
  return [...keys];
}

/**
 * The keys of the rows an index must hold, beside `rows`, to give their spellings as the whole reference would: the
 * rows each of their texts (`spellings`) may designate.
 */
export function spellingKeys(rows: readonly StoredRow[], keyParts: number): string[] {
  const keys = new Set<string>();
  for (const row of rows)
    for (const text of [withoutLeadingNullParts(row.naturalKey), row.naturalKey, row.hierarchicalKey])
      for (const key of keysDesignatedBy(text, keyParts)) keys.add(key);
  return [...keys];
}

/**
 * The values of a reference's rows that a check of a file of `entry` reads beside their keys: every value when one
 * of its expressions loads the reference (`references.X`, `referencesValues.X`), the values its dynamic columns are
 * named after, or none (a reference checker, a parent or a recursive parent resolves by keys alone). A reference of
 * a million rows is then sent to the checking worker as its keys.
 */
export function valuesRead(entry: DataEntry, name: string): 'every' | string[] {
  if (expressionsOf(entry).some((expression) => expression.references.includes(name))) return 'every';
  const components = entry.csv.dynamics
    .filter((dynamic) => dynamic.reference === name)
    .map((dynamic) => dynamic.referenceComponent);
  return [...new Set(components)].sort();
}
