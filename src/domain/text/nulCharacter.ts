/**
 * Whether a value (a text, or any JSON structure) holds the NUL character. PostgreSQL stores no NUL in a text or a
 * JSON value, so a request carrying one is refused when it arrives rather than failing deep in a statement.
 */
export function holdsNulCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Deeper than any request the API takes: such a structure is refused as well.
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((item) => holdsNulCharacter(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNulCharacter(item, depth + 1));
  }
  return false;
}
