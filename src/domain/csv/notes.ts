/**
 * What a check on a device could not settle by itself, without it being an error: a value of a reference the device
 * has no copy of (the server checks it), a value outside the part of a reference its user may read (the device holds
 * that part only; the server checks against the whole, as a depositor need not read every row they point to), or
 * one known only from an upload still waiting on the device. And a value read as the original reads it where its
 * writer may have meant otherwise: a list of floats holding what looks like a decimal comma (`1,5` is 1 and 5). One
 * note per distinct value and column, at its first line: a file of a million rows naming one station gives one note.
 */
export type CsvNoteCode =
  'referenceNotCheckedHere' | 'referenceOutsideReadPart' | 'referenceKnownFromQueuedUpload' | 'decimalCommaInList';

export interface CsvNote {
  code: CsvNoteCode;
  /** The first line the value is met on. */
  lineNumber: number;
  /** The reference the value points into, for the notes about references. */
  refType?: string;
  component: string;
  column?: string;
  value: string;
}

/**
 * Distinct values a check remembers to note each once: a file naming a value of its own on each of a million lines
 * would otherwise hold them all in the device's memory. Past it, the count is a lower bound (`capped`).
 */
export const MAX_NOTED_VALUES = 100_000;

export class NoteCollector {
  readonly kept: CsvNote[] = [];
  count = 0;
  /** Values were met past those remembered: `count` is at least their number. */
  capped = false;
  private readonly seen = new Set<string>();

  constructor(
    private readonly max: number,
    private readonly remembered = MAX_NOTED_VALUES,
  ) {}

  add(note: CsvNote): void {
    const key = `${note.code}\u0000${note.component}\u0000${note.value}`;
    if (this.seen.has(key)) return;
    if (this.seen.size >= this.remembered) {
      this.capped = true;
      return;
    }
    this.seen.add(key);
    this.count += 1;
    if (this.kept.length < this.max) this.kept.push(note);
  }
}
