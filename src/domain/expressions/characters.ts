/**
 * Character classes of the language. ASCII is tested first: the Unicode property patterns are only needed for
 * accented names, and they are slow to build the first time.
 */

export function isIdentifierStart(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36;
  return /\p{L}/u.test(c);
}

export function isIdentifierPart(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128)
    return (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 95 ||
      code === 36
    );
  return /[\p{L}\p{N}]/u.test(c);
}

export function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** Whether a name starts with a capital letter (class names do, by Java convention). */
export function isCapitalized(name: string): boolean {
  const code = name.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90;
  return /^\p{Lu}/u.test(name);
}
