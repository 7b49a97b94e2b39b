/**
 * The rows an offset and a limit keep out of a stream read a page at a time, and how many rows the stream held:
 * lists filtered outside the database read every row to count them, and keep only those of the page asked for.
 */
export class RowWindow {
  private seen = 0;

  constructor(
    private readonly offset: number,
    /** No limit keeps every row from the offset on. */
    private readonly limit: number | null,
  ) {}

  /** The rows of `rows`, the next ones of the stream, that fall in the window. */
  keep<T>(rows: readonly T[]): T[] {
    const start = Math.max(0, this.offset - this.seen);
    const end = this.limit === null ? rows.length : Math.max(start, this.offset + this.limit - this.seen);
    this.seen += rows.length;
    return rows.slice(start, end);
  }

  /** How many rows the stream held so far. */
  get total(): number {
    return this.seen;
  }
}
