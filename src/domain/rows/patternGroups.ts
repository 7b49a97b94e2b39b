/** A pattern component's stored value: the columns of the file it matched, one group each, in file order. */
export interface PatternGroup {
  header?: unknown;
  value?: unknown;
  adjacents?: Record<string, unknown>;
  qualifiers?: Record<string, unknown>;
}

/** A pattern component's groups; none when the stored value is not a list. */
export const groupsOf = (value: unknown): PatternGroup[] => (Array.isArray(value) ? (value as PatternGroup[]) : []);
