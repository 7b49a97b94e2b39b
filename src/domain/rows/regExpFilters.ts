/**
 * The original reads a row filter with `isRegExp` as a case-insensitive regular expression. Terrain's row queries
 * compare texts exactly, so such a filter would match nothing and answer an empty page as if no row matched: the
 * component of the first filter asking for one, so that the query is refused instead. Undefined when none does, or
 * when the text is no query at all (the query's own reading says what is wrong with it).
 */
export function regExpFilterIn(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const filters = (raw as { componentFilters?: unknown } | null)?.componentFilters;
  if (!Array.isArray(filters)) return undefined;
  for (const filter of filters as unknown[]) {
    if (!filter || typeof filter !== 'object') continue;
    const { isRegExp, componentKey } = filter as { isRegExp?: unknown; componentKey?: unknown };
    // Jackson reads "true" as true: a script sending it as text asks for a regular expression as well.
    if (isRegExp === true || isRegExp === 'true') return typeof componentKey === 'string' ? componentKey : '';
  }
  return undefined;
}
