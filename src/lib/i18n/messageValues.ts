/**
 * The values a server refusal's message interpolates: a positional list gives param0, param1…; a list of names (the
 * accounts a grant could not find) reads as a sentence would write it.
 */
export function messageValues(params: Record<string, unknown> | unknown[]): Record<string, unknown> {
  if (Array.isArray(params)) return Object.fromEntries(params.map((value, index) => [`param${index}`, value]));
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, listed(value)]));
}

const isWord = (value: unknown) => typeof value === 'string' || typeof value === 'number';
const listed = (value: unknown) => (Array.isArray(value) && value.every(isWord) ? value.join(', ') : value);
