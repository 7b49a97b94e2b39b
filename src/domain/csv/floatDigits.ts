/**
 * Whether an `OA_float` text loses digits once stored. A float is stored as a JSON number, a double: a text with more
 * significant digits than a double keeps (`9007199254740993`, `3.14159265358979323846`), or below the smallest one
 * (`1e-400`), would be stored as another number without a word. Such a text is refused instead (`floatPrecisionLost`).
 * The written precision is not part of the value: `0.10`, `1.0`, `1e3`, `-0` are the numbers 0.1, 1, 1000 and 0.
 */

/** Every decimal of at most this many digits is the shortest text of its nearest double, when that double is normal. */
const DIGITS_A_DOUBLE_KEEPS = 15;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/**
 * `text` is a decimal `parseFloatText` accepted (a decimal comma already read as a point) and `value` what it gave.
 * True when the exact decimal value of the text is not that of the shortest text of `value`.
 */
export function losesDigits(text: string, value: number): boolean {
  // The common case in one pass and no allocation: few digits, a normal double (or zero written as zero).
  let digits = 0;
  let nonZero = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      digits += 1;
      if (code !== 48) nonZero = true;
    } else if (code === 101 || code === 69) break;
  }
  if (value === 0 ? !nonZero : digits <= DIGITS_A_DOUBLE_KEEPS && Math.abs(value) >= SMALLEST_NORMAL) return false;
  return decimalForm(text) !== decimalForm(String(Math.abs(value)));
}

/**
 * The value of a decimal text, whatever its writing: `<digits>e<exponent>` for 0.digits × 10^exponent, the digits
 * without leading or trailing zeros; `0` for zero. The sign is left out: the double keeps the text's.
 */
export function decimalForm(text: string): string {
  let end = text.length;
  const last = text.charCodeAt(end - 1);
  if (last === 102 || last === 70 || last === 100 || last === 68) end -= 1;
  let index = text.charCodeAt(0) === 43 || text.charCodeAt(0) === 45 ? 1 : 0;
  let mantissa = '';
  let integerDigits = 0;
  let afterPoint = false;
  for (; index < end; index += 1) {
    const character = text[index];
    if (character === '.') afterPoint = true;
    else if (character === 'e' || character === 'E') break;
    else {
      mantissa += character;
      if (!afterPoint) integerDigits += 1;
    }
  }
  let first = 0;
  while (first < mantissa.length && mantissa[first] === '0') first += 1;
  if (first === mantissa.length) return '0';
  let stop = mantissa.length;
  while (mantissa[stop - 1] === '0') stop -= 1;
  const exponent = index < end ? Number(text.slice(index + 1, end)) : 0;
  return `${mantissa.slice(first, stop)}e${integerDigits - first + exponent}`;
}
