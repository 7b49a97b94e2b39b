/**
 * Natural and hierarchical keys (format reference §9), the one implementation shared by the CSV engine, the
 * expression engine (OA_escapeLabel, OA_buildCompositeKey, OA_buildManyCompositeKey, Ltree.fromUnescapedString)
 * and the server. Imports nothing but `memoized`.
 *
 * - A label is an ltree label: `[A-Za-z0-9_]`, at most 256 characters. {@link escapeLabel} turns any text into one:
 *   lower case, accents removed, space → `_`, `-` removed, any other character spelled by its Unicode name
 *   (`:` → `COLON`); a text that already is a label holding a spelled-out character (`08COLON45`, `NULL_KEY__oir`) is
 *   kept as it is.
 * - A natural key joins the escaped values of the key components with `__`; an empty value is `NULL_KEY`; when every
 *   value is empty the key is the empty text.
 * - A hierarchical key is a dot-separated ltree path whose last label is `<dataName>K<naturalKey>`, preceded by the
 *   hierarchical key of the row's parent when it has one.
 */
import { memoized } from '../memo/memoized';
import { KNOWN_SYMBOL_CODES, characterName } from './unicodeNames';

export const NULL_KEY = 'NULL_KEY';
export const KEY_SEPARATOR = '__';
export const MAX_LABEL_LENGTH = 256;
/**
 * A row's whole key, its parents' included (keys are ASCII: as many bytes). The database indexes keys in B-trees
 * whose entries hold at most about 2,700 bytes: a longer key failed the row's write.
 */
export const MAX_HIERARCHICAL_KEY_LENGTH = 2_000;

/** Why a text cannot become a label. */
export type LabelProblem = 'empty' | 'tooLong';

/** Thrown by {@link escapeLabel}; callers turn it into their own error value. */
export class LabelError extends Error {
  override readonly name = 'LabelError';
  constructor(
    readonly problem: LabelProblem,
    readonly text: string,
  ) {
    super(
      problem === 'empty'
        ? 'An empty text cannot be a label.'
        : `A label may not be longer than ${MAX_LABEL_LENGTH} characters.`,
    );
  }
}

const VALID_LABEL = /^[a-zA-Z0-9_]+$/;
/** Lower-case labels that escaping leaves as they are (no spelled-out names, no run of six `_` to rewrite). */
const PLAIN_LABEL = /^[a-z0-9_]+$/;
/** One pattern for every spelled-out name (names with other characters, such as `LINEFEED(LF)`, can never be inside a label). */
const KNOWN_SYMBOL = new RegExp(KNOWN_SYMBOL_CODES.filter((code) => VALID_LABEL.test(code)).join('|'));

export function isLabel(text: string): boolean {
  return text.length <= MAX_LABEL_LENGTH && VALID_LABEL.test(text);
}

/** A label made only of label characters that already holds a spelled-out character (`08COLON45`, `NULL_KEY`). */
function isAlreadyEscaped(label: string): boolean {
  return VALID_LABEL.test(label) && KNOWN_SYMBOL.test(label);
}

/** Removes accents (commons-lang StringUtils.stripAccents: decomposes, drops marks, maps ł to l). */
function stripAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/\u0141/g, 'L')
    .replace(/\u0142/g, 'l');
}

function isLabelCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Turns a text into an ltree label: lower case, accents removed, space → `_`, `-` removed, any other character
 * spelled by its Unicode name (`:` → `COLON`). Throws {@link LabelError} for an empty result or one over 256
 * characters.
 */
export function escapeLabel(text: string): string {
  if (PLAIN_LABEL.test(text) && !text.includes('______')) {
    if (text.length > MAX_LABEL_LENGTH) throw new LabelError('tooLong', text);
    return text;
  }
  if (isAlreadyEscaped(text)) {
    if (text.length > MAX_LABEL_LENGTH) throw new LabelError('tooLong', text);
    return text;
  }
  const prepared = stripAccents(text.replaceAll(NULL_KEY, '____').toLowerCase())
    .replaceAll(' ', '_')
    .replaceAll('-', '');
  let escaped = '';
  for (let k = 0; k < prepared.length; k++) {
    const code = prepared.charCodeAt(k);
    escaped += isLabelCharacter(code) ? prepared[k] : characterName(code).replace(/[^a-zA-Z0-9_]/g, '');
  }
  if (escaped.length === 0) throw new LabelError('empty', text);
  if (escaped.length > MAX_LABEL_LENGTH) throw new LabelError('tooLong', text);
  return escaped
    .replaceAll('________', '__NULL_KEY__')
    .replace(/^______/, 'NULL_KEY__')
    .replace(/______$/, '__NULL_KEY');
}

/** Checked dates are stored as `date:<ISO date-time>:<pattern>`; keys use the date as the pattern writes it. */
const STORED_DATE = /^date:(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?:(.*)$/s;

/** The text a stored date (`date:1984-12-25T00:00:00:dd/MM/yyyy`) shows with its pattern, or null for other texts. */
export function formatStoredDate(value: string): string | null {
  return value.startsWith('date:') ? shownDate(value) : null;
}

const shownDate = memoized((value: string): string | null => {
  const match = STORED_DATE.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, pattern] = match;
  const fields: Record<string, string> = {
    yyyy: year,
    yy: year.slice(-2),
    MM: month,
    dd: day,
    HH: hour,
    mm: minute,
    ss: second,
  };
  return pattern.replace(/yyyy|yy|MM|dd|HH|mm|ss/g, (token) => fields[token]);
});

/**
 * One natural key from its parts: `a__b`; an empty part is NULL_KEY; all parts empty give ''. A part holding a
 * stored date is written as its pattern shows it, `/` becoming `_` (`22_01_2020`). Throws {@link LabelError}.
 */
export function compositeKey(parts: readonly string[]): string {
  let allEmpty = true;
  for (const part of parts) {
    if (part !== '') {
      allEmpty = false;
      break;
    }
  }
  if (allEmpty) return '';
  let key = '';
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    let label: string;
    if (part === '') label = NULL_KEY;
    else {
      const date = formatStoredDate(part);
      label = escapeLabel(date === null ? part : date.replaceAll('/', '_'));
    }
    key = k === 0 ? label : key + KEY_SEPARATOR + label;
  }
  return key;
}

/** Java `text.split(",")`: trailing empty parts are dropped, but an empty text gives one empty part. */
export function splitOnCommas(text: string): string[] {
  if (text === '') return [''];
  const parts = text.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** Java's String.trim: removes the characters up to U+0020 at both ends (not the other Unicode spaces). */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 32) start += 1;
  while (end > start && text.charCodeAt(end - 1) <= 32) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Parts that each hold a comma-separated list: one key per position, joined with commas. Throws {@link LabelError}. */
export function manyCompositeKey(parts: readonly string[]): string {
  const lists = parts.map(splitOnCommas);
  const size = Math.max(0, ...lists.map((list) => list.length));
  const keys: string[] = [];
  for (let k = 0; k < size; k++) keys.push(compositeKey(lists.map((list) => javaTrim(list[k] ?? ''))));
  return keys.join(',');
}

/** The label of a row in hierarchical keys: `<dataName>K<naturalKey>`. */
export function hierarchicalLabel(dataName: string, naturalKey: string): string {
  return `${dataName}K${naturalKey}`;
}

/** A row's hierarchical key: its label after its parent's hierarchical key, when it has a parent. */
export function hierarchicalKey(dataName: string, naturalKey: string, parentKey: string | null = null): string {
  const label = hierarchicalLabel(dataName, naturalKey);
  return parentKey ? `${parentKey}.${label}` : label;
}

/** Whether `key` is `ancestor` or lies under it (ltree `ancestor @> key`). */
export function isUnderHierarchicalKey(key: string, ancestor: string): boolean {
  return (
    key === ancestor ||
    (key.length > ancestor.length && key.startsWith(ancestor) && key.charCodeAt(ancestor.length) === 46)
  );
}

/**
 * The natural keys a key may be once its leading empty parts are put back: itself without them, then with one, two…
 * up to `keyParts - 1` of them (a key of `keyParts` parts has at most that many).
 */
export function withEachLeadingNullParts(naturalKey: string, keyParts: number): string[] {
  const keys = [withoutLeadingNullParts(naturalKey)];
  for (let part = 1; part < keyParts; part += 1) keys.push(`${NULL_KEY}${KEY_SEPARATOR}${keys[part - 1]}`);
  return keys;
}

/** The natural key without its leading `NULL_KEY__` parts (`NULL_KEY__oir` → `oir`), how people often write a key whose first parts are empty. */
export function withoutLeadingNullParts(naturalKey: string): string {
  let key = naturalKey;
  while (key.startsWith(`${NULL_KEY}${KEY_SEPARATOR}`)) key = key.slice(NULL_KEY.length + KEY_SEPARATOR.length);
  return key;
}

/**
 * `keys` with each key `renamed` holds replaced by its new one (a key named twice once renamed is kept once), or
 * null when none of them was renamed.
 */
export function renamedKeys(keys: readonly string[], renamed: ReadonlyMap<string, string>): string[] | null {
  if (!keys.some((key) => renamed.has(key))) return null;
  return [...new Set(keys.map((key) => renamed.get(key) ?? key))];
}
