/**
 * Label escaping and composite keys as OpenADOM builds them (format reference §9.1), behind OA_escapeLabel,
 * OA_buildCompositeKey, OA_buildManyCompositeKey and Ltree.fromUnescapedString.
 */
import { ExpressionError } from './errors';
import { KNOWN_SYMBOL_CODES, characterName } from './unicodeNames';

const NULL_KEY = 'NULL_KEY';
const KEY_SEPARATOR = '__';
const MAX_LABEL_LENGTH = 256;

const VALID_LABEL = /^[a-zA-Z0-9_]+$/;

/** A label made only of label characters that already holds a spelled-out character (`08COLON45`, `NULL_KEY`). */
function isAlreadyEscaped(label: string): boolean {
  return VALID_LABEL.test(label) && KNOWN_SYMBOL_CODES.some((code) => label.includes(code));
}

/** Removes accents (commons-lang StringUtils.stripAccents: decomposes, drops marks, maps ł to l). */
function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/\u0141/g, 'L').replace(/\u0142/g, 'l');
}

function isLabelCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Turns a text into an ltree label: lower case, accents removed, space → `_`, `-` removed, any other character
 * spelled by its Unicode name (`:` → `COLON`). Throws `invalidLabel` for an empty result or one over 256 characters.
 */
export function escapeLabel(text: string): string {
  if (isAlreadyEscaped(text)) return text;
  const prepared = stripAccents(text.replaceAll(NULL_KEY, '____').toLowerCase()).replaceAll(' ', '_').replaceAll('-', '');
  let escaped = '';
  for (let k = 0; k < prepared.length; k++) {
    const code = prepared.charCodeAt(k);
    escaped += isLabelCharacter(code) ? prepared[k] : characterName(code).replace(/[^a-zA-Z0-9_]/g, '');
  }
  if (escaped.length === 0) throw new ExpressionError('invalidLabel', 'An empty text cannot be a label.', { text });
  if (escaped.length > MAX_LABEL_LENGTH) {
    throw new ExpressionError('invalidLabel', `A label may not be longer than ${MAX_LABEL_LENGTH} characters.`, { text });
  }
  return escaped
    .replaceAll('________', '__NULL_KEY__')
    .replace(/^______/, 'NULL_KEY__')
    .replace(/______$/, '__NULL_KEY');
}

/** Checked dates are stored as `date:<ISO date-time>:<pattern>`; keys use the date as the pattern writes it. */
const STORED_DATE = /^date:(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}):(.*)$/s;

function formatStoredDate(value: string): string | null {
  const match = STORED_DATE.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, pattern] = match;
  const fields: Record<string, string> = { yyyy: year, yy: year.slice(2), MM: month, dd: day, HH: hour, mm: minute, ss: second };
  return pattern.replace(/yyyy|yy|MM|dd|HH|mm|ss/g, (token) => fields[token]);
}

/** One natural key from its parts: `a__b`; an empty part is NULL_KEY; all parts empty give ''. */
export function compositeKey(parts: readonly string[]): string {
  if (parts.every((part) => part === '')) return '';
  return parts
    .map((part) => {
      if (part === '') return NULL_KEY;
      const date = formatStoredDate(part);
      return date === null ? part : date.replaceAll('/', '_');
    })
    .map(escapeLabel)
    .join(KEY_SEPARATOR);
}

/** Java `text.split(",")`: trailing empty parts are dropped, but an empty text gives one empty part. */
function splitOnCommas(text: string): string[] {
  if (text === '') return [''];
  const parts = text.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Parts that each hold a comma-separated list: one key per position, joined with commas. */
export function manyCompositeKey(parts: readonly string[]): string {
  const lists = parts.map(splitOnCommas);
  const size = Math.max(0, ...lists.map((list) => list.length));
  const keys: string[] = [];
  for (let k = 0; k < size; k++) keys.push(compositeKey(lists.map((list) => (list[k] ?? '').trim())));
  return keys.join(',');
}
