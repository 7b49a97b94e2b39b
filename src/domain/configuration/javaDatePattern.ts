import { dayOfWeek, lengthOfMonth, toEpochDay, type LocalDateTime } from './localDateTime';

/**
 * Java `DateTimeFormatter` patterns (`dd/MM/yyyy`, `MM/yyyy`, `HH:mm:ss`, `dd/MM/yyyy HH:mm`…), compiled once into
 * a parser and a formatter. Validation follows `DateTimeFormatterBuilder.appendPattern` (unknown letters, letter
 * counts, reserved characters, quotes, optional sections). Parsing reads fixed-width fields with exactly their
 * digits (`yyyy` wants at least four), `yy` as 2000–2099, and the whole text; it then resolves strictly: a day that
 * does not exist (31/02, 29/02/2021, day 366 of 2021, 24:00 with `HH`) is refused, where Java's default SMART
 * resolver would store the last day of the month or the next day's midnight — research data are never altered
 * without a word. `yyyy` still means the year (Java's STRICT style would want `uuuu`). Fields a pattern does not
 * carry default to 1970-01-01 for the date and 00:00 for the time, so a pattern without a year refuses 29/02.
 */
export interface JavaDatePattern {
  readonly source: string;
  /** Whether the pattern carries a date part, a time part (a time-only pattern gives values on 1970-01-01). */
  readonly hasDate: boolean;
  readonly hasTime: boolean;
  /** The fields the pattern carries (`month`, `minute`, …). */
  readonly fields: ReadonlySet<string>;
  parse(text: string): LocalDateTime | null;
  format(value: LocalDateTime): string;
}

export type DatePatternCompilation =
  | { ok: true; pattern: JavaDatePattern }
  /** `maxLength` when the pattern is refused for its length alone. */
  | { ok: false; message: string; index: number; maxLength?: number };

/**
 * The longest pattern compiled, in characters. Real patterns are a few dozen at most; parsing a value costs up to
 * the square of the pattern's fields, and a pattern may come from a configuration or from data an expression reads.
 */
export const MAX_DATE_PATTERN_LENGTH = 100;

/** Java's widest number field (`appendValue` refuses a minimum width past it): `yyyy…` of 20 letters and more. */
const MAX_NUMBER_WIDTH = 19;

type NumberField =
  | 'year'
  | 'yearOfEra'
  | 'weekBasedYear'
  | 'month'
  | 'day'
  | 'dayOfYear'
  | 'hourOfDay'
  | 'clockHourOfDay'
  | 'hourOfAmPm'
  | 'clockHourOfAmPm'
  | 'minute'
  | 'second'
  | 'nano'
  | 'milliOfDay'
  | 'nanoOfDay'
  | 'quarter'
  | 'weekOfWeekBasedYear'
  | 'weekOfMonth'
  | 'alignedWeekOfMonth'
  | 'localizedDayOfWeek';

type TextField = 'month' | 'dayOfWeek' | 'era' | 'amPm' | 'quarter';
type TextStyle = 'short' | 'full' | 'narrow';

type Element =
  | { kind: 'literal'; text: string }
  | { kind: 'number'; field: NumberField; minWidth: number; maxWidth: number }
  | { kind: 'reducedYear'; field: NumberField }
  | { kind: 'fraction'; minWidth: number; maxWidth: number }
  | { kind: 'text'; field: TextField; style: TextStyle }
  | { kind: 'zone'; letter: string; count: number }
  | { kind: 'optional'; elements: Element[] };

class PatternError extends Error {
  constructor(
    message: string,
    readonly index: number,
  ) {
    super(message);
  }
}

export function compileJavaDatePattern(source: string): DatePatternCompilation {
  if (source.length > MAX_DATE_PATTERN_LENGTH) {
    return {
      ok: false,
      message: `Pattern longer than ${MAX_DATE_PATTERN_LENGTH} characters`,
      index: MAX_DATE_PATTERN_LENGTH,
      maxLength: MAX_DATE_PATTERN_LENGTH,
    };
  }
  try {
    return { ok: true, pattern: new CompiledDatePattern(source, new PatternReader(source).read()) };
  } catch (thrown) {
    if (thrown instanceof PatternError) return { ok: false, message: thrown.message, index: thrown.index };
    throw thrown;
  }
}

const NUMBER_LETTERS: Record<string, NumberField> = {
  d: 'day',
  h: 'clockHourOfAmPm',
  H: 'hourOfDay',
  k: 'clockHourOfDay',
  K: 'hourOfAmPm',
  m: 'minute',
  s: 'second',
  D: 'dayOfYear',
  w: 'weekOfWeekBasedYear',
  W: 'alignedWeekOfMonth',
  F: 'weekOfMonth',
  n: 'nano',
  N: 'nanoOfDay',
  A: 'milliOfDay',
};

class PatternReader {
  private position = 0;

  constructor(private readonly source: string) {}

  read(): Element[] {
    const elements = this.readUntilClose();
    if (this.position < this.source.length) {
      throw new PatternError('Pattern invalid as it contains ] without previous [', this.position);
    }
    return elements;
  }

  private readUntilClose(): Element[] {
    const elements: Element[] = [];
    const source = this.source;
    while (this.position < source.length) {
      const start = this.position;
      const character = source[start];
      if (/[A-Za-z]/.test(character)) {
        let end = start;
        while (end < source.length && source[end] === character) end += 1;
        this.position = end;
        elements.push(this.letters(character, end - start, start));
      } else if (character === "'") {
        elements.push({ kind: 'literal', text: this.quoted() });
      } else if (character === '[') {
        this.position += 1;
        const inner = this.readUntilClose();
        if (source[this.position] === ']') this.position += 1;
        elements.push({ kind: 'optional', elements: inner });
      } else if (character === ']') {
        return elements;
      } else if (character === '#' || character === '{' || character === '}') {
        throw new PatternError(`Pattern includes reserved character: '${character}'`, start);
      } else {
        this.position += 1;
        const last = elements[elements.length - 1];
        if (last?.kind === 'literal') elements[elements.length - 1] = { kind: 'literal', text: last.text + character };
        else elements.push({ kind: 'literal', text: character });
      }
    }
    return elements;
  }

  private quoted(): string {
    const source = this.source;
    const start = this.position;
    let index = start + 1;
    let text = '';
    for (;;) {
      if (index >= source.length)
        throw new PatternError(`Pattern ends with an incomplete string literal: ${source}`, start);
      if (source[index] === "'") {
        if (source[index + 1] === "'") {
          text += "'";
          index += 2;
          continue;
        }
        break;
      }
      text += source[index];
      index += 1;
    }
    this.position = index + 1;
    // '' outside a literal is one quote; inside, it was handled above.
    return index === start + 1 ? "'" : text;
  }

  private letters(letter: string, count: number, index: number): Element {
    const tooMany = () => new PatternError(`Too many pattern letters: ${letter}`, index);
    switch (letter) {
      case 'u':
      case 'y':
      case 'Y': {
        const field: NumberField = letter === 'u' ? 'year' : letter === 'y' ? 'yearOfEra' : 'weekBasedYear';
        if (count === 2) return { kind: 'reducedYear', field };
        if (count > MAX_NUMBER_WIDTH) throw tooMany();
        return { kind: 'number', field, minWidth: count, maxWidth: MAX_NUMBER_WIDTH };
      }
      case 'M':
      case 'L':
        if (count > 5) throw tooMany();
        if (count <= 2) return { kind: 'number', field: 'month', minWidth: count, maxWidth: count === 1 ? 19 : 2 };
        return { kind: 'text', field: 'month', style: textStyle(count) };
      case 'Q':
      case 'q':
        if (count > 5) throw tooMany();
        if (count <= 2) return { kind: 'number', field: 'quarter', minWidth: count, maxWidth: count === 1 ? 19 : 2 };
        return { kind: 'text', field: 'quarter', style: textStyle(count) };
      case 'E':
        if (count > 5) throw tooMany();
        return { kind: 'text', field: 'dayOfWeek', style: textStyle(count <= 3 ? 3 : count) };
      case 'e':
      case 'c':
        if (count > 5) throw tooMany();
        if (letter === 'c' && count === 2) throw new PatternError(`Invalid pattern "cc"`, index);
        if (count <= 2) return { kind: 'number', field: 'localizedDayOfWeek', minWidth: count, maxWidth: count };
        return { kind: 'text', field: 'dayOfWeek', style: textStyle(count) };
      case 'G':
        if (count > 5) throw tooMany();
        return { kind: 'text', field: 'era', style: textStyle(count <= 3 ? 3 : count) };
      case 'a':
        if (count > 1) throw tooMany();
        return { kind: 'text', field: 'amPm', style: 'short' };
      case 'S':
        if (count > 9) throw tooMany();
        return { kind: 'fraction', minWidth: count, maxWidth: count };
      case 'n':
      case 'N':
      case 'A':
        if (count > 19) throw tooMany();
        return { kind: 'number', field: NUMBER_LETTERS[letter], minWidth: count, maxWidth: 19 };
      case 'D':
        if (count > 3) throw tooMany();
        return { kind: 'number', field: 'dayOfYear', minWidth: count, maxWidth: count === 1 ? 19 : 3 };
      case 'd':
      case 'h':
      case 'H':
      case 'k':
      case 'K':
      case 'm':
      case 's':
      case 'w':
      case 'F':
        if (count > 2) throw tooMany();
        return { kind: 'number', field: NUMBER_LETTERS[letter], minWidth: count, maxWidth: count === 1 ? 19 : 2 };
      case 'W':
        if (count > 1) throw tooMany();
        return { kind: 'number', field: 'alignedWeekOfMonth', minWidth: 1, maxWidth: 19 };
      case 'V':
        if (count !== 2) throw new PatternError('Pattern letter count must be 2: V', index);
        return { kind: 'zone', letter, count };
      case 'z':
        if (count > 4) throw tooMany();
        return { kind: 'zone', letter, count };
      case 'O':
        if (count !== 1 && count !== 4) throw new PatternError('Pattern letter count must be 1 or 4: O', index);
        return { kind: 'zone', letter, count };
      case 'X':
      case 'x':
      case 'Z':
        if (count > 5) throw tooMany();
        return { kind: 'zone', letter, count };
      default:
        throw new PatternError(`Unknown pattern letter: ${letter}`, index);
    }
  }
}

function textStyle(count: number): TextStyle {
  return count === 4 ? 'full' : count === 5 ? 'narrow' : 'short';
}

const MONTHS_FULL = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTHS_FULL_FR = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];
const MONTHS_SHORT_FR = [
  'janv.',
  'févr.',
  'mars',
  'avr.',
  'mai',
  'juin',
  'juil.',
  'août',
  'sept.',
  'oct.',
  'nov.',
  'déc.',
];
const DAYS_FULL = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAYS_FULL_FR = ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'];
const DAYS_SHORT_FR = ['lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.', 'dim.'];

/** Names a text field accepts when parsing (English and French, the languages of the portal), value first. */
function textChoices(field: TextField): Array<[number, string[]]> {
  switch (field) {
    case 'month':
      return MONTHS_FULL.map((name, index) => [
        index + 1,
        [name, name.slice(0, 3), MONTHS_FULL_FR[index], MONTHS_SHORT_FR[index]],
      ]);
    case 'dayOfWeek':
      return DAYS_FULL.map((name, index) => [
        index + 1,
        [name, name.slice(0, 3), DAYS_FULL_FR[index], DAYS_SHORT_FR[index]],
      ]);
    case 'era':
      return [
        [0, ['Before Christ', 'BC', 'av. J.-C.']],
        [1, ['Anno Domini', 'AD', 'ap. J.-C.']],
      ];
    case 'amPm':
      return [
        [0, ['AM']],
        [1, ['PM']],
      ];
    case 'quarter':
      return [1, 2, 3, 4].map((quarter) => [
        quarter,
        [`${ordinal(quarter)} quarter`, `Q${quarter}`, `${quarter}e trimestre`, `T${quarter}`],
      ]);
  }
}

function ordinal(value: number): string {
  return value === 1 ? '1st' : value === 2 ? '2nd' : value === 3 ? '3rd' : `${value}th`;
}

function formatText(field: TextField, style: TextStyle, value: number): string {
  switch (field) {
    case 'month':
      return style === 'full'
        ? MONTHS_FULL[value - 1]
        : style === 'short'
          ? MONTHS_FULL[value - 1].slice(0, 3)
          : MONTHS_FULL[value - 1][0];
    case 'dayOfWeek':
      return style === 'full'
        ? DAYS_FULL[value - 1]
        : style === 'short'
          ? DAYS_FULL[value - 1].slice(0, 3)
          : DAYS_FULL[value - 1][0];
    case 'era':
      return style === 'full'
        ? value === 1
          ? 'Anno Domini'
          : 'Before Christ'
        : style === 'short'
          ? value === 1
            ? 'AD'
            : 'BC'
          : value === 1
            ? 'A'
            : 'B';
    case 'amPm':
      return value === 0 ? 'AM' : 'PM';
    case 'quarter':
      return style === 'full' ? `${ordinal(value)} quarter` : style === 'short' ? `Q${value}` : String(value);
  }
}

/** Java's ranges; years beyond ±999,999,999 would also lose digits as numbers. */
const FIELD_RANGES: Partial<Record<NumberField, [number, number]>> = {
  year: [-999_999_999, 999_999_999],
  weekBasedYear: [-999_999_999, 999_999_999],
  yearOfEra: [1, 999_999_999],
  month: [1, 12],
  day: [1, 31],
  dayOfYear: [1, 366],
  hourOfDay: [0, 23],
  clockHourOfDay: [1, 24],
  hourOfAmPm: [0, 11],
  clockHourOfAmPm: [1, 12],
  minute: [0, 59],
  second: [0, 59],
  nano: [0, 999_999_999],
  quarter: [1, 4],
  localizedDayOfWeek: [1, 7],
};

type Parsed = Partial<Record<NumberField | 'dayOfWeek' | 'era' | 'amPm' | 'fraction', number>>;

const DATE_FIELDS: ReadonlySet<string> = new Set([
  'year',
  'yearOfEra',
  'weekBasedYear',
  'month',
  'day',
  'dayOfYear',
  'era',
  'quarter',
]);
const TIME_FIELDS: ReadonlySet<string> = new Set([
  'hourOfDay',
  'clockHourOfDay',
  'hourOfAmPm',
  'clockHourOfAmPm',
  'minute',
  'second',
  'nano',
  'amPm',
  'milliOfDay',
  'nanoOfDay',
]);

/**
 * A time field whose larger unit the pattern lacks: minutes without an hour (`yyyy-Mm-dd`, where `m` was meant as
 * `M`), seconds without minutes, fractions without seconds. `DateTimeFormatter.ofPattern` takes them, but Java
 * cannot build a time from them and the original refuses such a checker's pattern when the configuration is loaded;
 * read here, its values would be refused one by one or read with the hour the pattern lacks. Its message, and where its letter stands, for the refusal.
 */
export function fieldWithoutItsUnit(pattern: JavaDatePattern): { message: string; index: number } | null {
  const found = unanchored(pattern.fields);
  if (!found) return null;
  return {
    message: `${found.field} (${found.letter}) without ${found.missing}: the pattern cannot be read back as a date or a time`,
    index: unquotedIndexOf(pattern.source, found.letter),
  };
}

function unanchored(fields: ReadonlySet<string>): { field: string; letter: string; missing: string } | null {
  const hour = ['hourOfDay', 'clockHourOfDay', 'hourOfAmPm', 'clockHourOfAmPm'].some((field) => fields.has(field));
  if (fields.has('minute') && !hour) return { field: 'Minutes', letter: 'm', missing: 'an hour (H)' };
  if (fields.has('second') && !fields.has('minute')) return { field: 'Seconds', letter: 's', missing: 'minutes (m)' };
  if (fields.has('nano') && !fields.has('second')) return { field: 'Fractions', letter: 'S', missing: 'seconds (s)' };
  return null;
}

/** Where `letter` first stands as a pattern letter, outside quoted text. */
function unquotedIndexOf(source: string, letter: string): number {
  let quoted = false;
  for (let index = 0; index < source.length; index += 1) {
    if (source[index] === "'") quoted = !quoted;
    else if (!quoted && source[index] === letter) return index;
  }
  return 0;
}

class CompiledDatePattern implements JavaDatePattern {
  readonly hasDate: boolean;
  readonly hasTime: boolean;
  readonly fields: ReadonlySet<string>;

  constructor(
    readonly source: string,
    private readonly elements: Element[],
  ) {
    const fields = new Set<string>();
    const collect = (list: Element[]) => {
      for (const element of list) {
        if (element.kind === 'optional') collect(element.elements);
        else if (element.kind === 'number' || element.kind === 'reducedYear' || element.kind === 'text')
          fields.add(element.field);
        else if (element.kind === 'fraction') fields.add('nano');
      }
    };
    collect(elements);
    this.fields = fields;
    this.hasDate = [...fields].some((field) => DATE_FIELDS.has(field));
    this.hasTime = [...fields].some((field) => TIME_FIELDS.has(field));
  }

  parse(text: string): LocalDateTime | null {
    const parsed: Parsed = {};
    const end = parseElements(this.elements, text, 0, parsed);
    if (end !== text.length) return null;
    return resolve(parsed);
  }

  format(value: LocalDateTime): string {
    return formatElements(this.elements, value);
  }
}

/** Parses the elements from `position`; returns the end position or -1. Fields go into `parsed`. */
function parseElements(elements: readonly Element[], text: string, position: number, parsed: Parsed): number {
  let at = position;
  for (let index = 0; index < elements.length; index += 1) {
    const element = elements[index];
    switch (element.kind) {
      case 'literal':
        if (!text.startsWith(element.text, at)) return -1;
        at += element.text.length;
        break;
      case 'optional': {
        const attempt: Parsed = { ...parsed };
        const end = parseElements(element.elements, text, at, attempt);
        if (end >= 0) {
          Object.assign(parsed, attempt);
          at = end;
        }
        break;
      }
      case 'number': {
        const end = parseNumber(element, text, at, reservedDigits(elements, index), parsed);
        if (end < 0) return -1;
        at = end;
        break;
      }
      case 'reducedYear': {
        const digits = text.slice(at, at + 2);
        if (!/^\d\d$/.test(digits)) return -1;
        parsed[element.field] = 2000 + Number(digits);
        at += 2;
        break;
      }
      case 'fraction': {
        let end = at;
        while (end < text.length && end - at < element.maxWidth && isDigit(text, end)) end += 1;
        if (end - at < element.minWidth) return -1;
        parsed.fraction = Number(text.slice(at, end).padEnd(9, '0'));
        at = end;
        break;
      }
      case 'text': {
        const end = parseText(element.field, text, at, parsed);
        if (end < 0) return -1;
        at = end;
        break;
      }
      case 'zone': {
        const match = /^(Z|[+-]\d{2}(:?\d{2}(:?\d{2})?)?|[A-Za-z][A-Za-z0-9_/+-]*)/.exec(text.slice(at));
        if (!match) return -1;
        at += match[0].length;
        break;
      }
    }
  }
  return at;
}

/** Digits that the fixed-width numbers right after a variable-width one need (Java's "adjacent value parsing"). */
function reservedDigits(elements: readonly Element[], index: number): number {
  let reserved = 0;
  for (let next = index + 1; next < elements.length; next += 1) {
    const element = elements[next];
    if (element.kind === 'number' && element.minWidth === element.maxWidth) reserved += element.minWidth;
    else if (element.kind === 'reducedYear') reserved += 2;
    else if (element.kind === 'fraction' && element.minWidth === element.maxWidth) reserved += element.minWidth;
    else break;
  }
  return reserved;
}

function isDigit(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

function parseNumber(
  element: Extract<Element, { kind: 'number' }>,
  text: string,
  position: number,
  reserved: number,
  parsed: Parsed,
): number {
  let at = position;
  let negative = false;
  const signed = element.field === 'year' || element.field === 'weekBasedYear';
  if (signed && (text[at] === '-' || text[at] === '+')) {
    negative = text[at] === '-';
    at += 1;
  }
  let runEnd = at;
  while (runEnd < text.length && isDigit(text, runEnd)) runEnd += 1;
  const available = runEnd - at;
  const width =
    element.minWidth === element.maxWidth ? element.minWidth : Math.min(element.maxWidth, available - reserved);
  if (width < element.minWidth || available < width) return -1;
  const value = Number(text.slice(at, at + width)) * (negative ? -1 : 1);
  const range = FIELD_RANGES[element.field];
  if (range && (value < range[0] || value > range[1])) return -1;
  parsed[element.field] = value;
  return at + width;
}

function parseText(field: TextField, text: string, position: number, parsed: Parsed): number {
  let best: { value: number; length: number } | undefined;
  const rest = text.slice(position).toLowerCase();
  for (const [value, names] of textChoices(field)) {
    for (const name of names) {
      if (rest.startsWith(name.toLowerCase()) && (!best || name.length > best.length))
        best = { value, length: name.length };
    }
  }
  if (!best) return -1;
  if (field === 'month') parsed.month = best.value;
  else if (field === 'quarter') parsed.quarter = best.value;
  else parsed[field] = best.value;
  return position + best.length;
}

function resolve(parsed: Parsed): LocalDateTime | null {
  let year = parsed.year ?? parsed.weekBasedYear;
  if (year === undefined && parsed.yearOfEra !== undefined)
    year = parsed.era === 0 ? 1 - parsed.yearOfEra : parsed.yearOfEra;
  const hasDate =
    year !== undefined || parsed.month !== undefined || parsed.day !== undefined || parsed.dayOfYear !== undefined;
  year ??= 1970;
  let month = parsed.month ?? 1;
  let day = parsed.day ?? 1;
  if (parsed.dayOfYear !== undefined) {
    const fromDayOfYear = monthAndDayOf(year, parsed.dayOfYear);
    if (!fromDayOfYear) return null;
    // A text giving both the day of the year and the month or day must say the same day twice.
    if (
      (parsed.month !== undefined && parsed.month !== fromDayOfYear.month) ||
      (parsed.day !== undefined && parsed.day !== fromDayOfYear.day)
    )
      return null;
    ({ month, day } = fromDayOfYear);
  }
  if (parsed.quarter !== undefined && parsed.month !== undefined && Math.ceil(parsed.month / 3) !== parsed.quarter)
    return null;
  if (day > lengthOfMonth(year, month)) return null;

  let hour = parsed.hourOfDay ?? 0;
  // `k` counts the hours 1–24 of a wall clock: its 24 is the first hour of the same day, as in Java.
  if (parsed.clockHourOfDay !== undefined) hour = parsed.clockHourOfDay % 24;
  const hourOfAmPm =
    parsed.hourOfAmPm ?? (parsed.clockHourOfAmPm !== undefined ? parsed.clockHourOfAmPm % 12 : undefined);
  if (hourOfAmPm !== undefined) hour = hourOfAmPm + 12 * (parsed.amPm ?? 0);
  else if (
    parsed.amPm !== undefined &&
    parsed.hourOfDay !== undefined &&
    (parsed.hourOfDay >= 12 ? 1 : 0) !== parsed.amPm
  )
    return null;
  let minute = parsed.minute ?? 0;
  let second = parsed.second ?? 0;
  let nano = parsed.fraction ?? parsed.nano ?? 0;
  if (parsed.milliOfDay !== undefined || parsed.nanoOfDay !== undefined) {
    const nanoOfDay = parsed.nanoOfDay ?? parsed.milliOfDay! * 1_000_000;
    if (nanoOfDay >= 86_400 * 1e9) return null;
    hour = Math.floor(nanoOfDay / 3.6e12);
    minute = Math.floor((nanoOfDay % 3.6e12) / 6e10);
    second = Math.floor((nanoOfDay % 6e10) / 1e9);
    nano = nanoOfDay % 1e9;
  }
  const value: LocalDateTime = { year, month, day, hour, minute, second, nano };
  if (hasDate && parsed.dayOfWeek !== undefined && dayOfWeek(year, month, day) !== parsed.dayOfWeek) return null;
  return value;
}

/** The month and day of a day of the year, or null past the year's end. */
function monthAndDayOf(year: number, dayOfYear: number): { month: number; day: number } | null {
  let remaining = dayOfYear;
  for (let month = 1; month <= 12; month += 1) {
    if (remaining <= lengthOfMonth(year, month)) return { month, day: remaining };
    remaining -= lengthOfMonth(year, month);
  }
  return null;
}

function formatElements(elements: readonly Element[], value: LocalDateTime): string {
  let out = '';
  for (const element of elements) {
    switch (element.kind) {
      case 'literal':
        out += element.text;
        break;
      case 'optional':
        out += formatElements(element.elements, value);
        break;
      case 'number': {
        const number = fieldValue(element.field, value);
        const digits = String(Math.abs(number)).padStart(element.minWidth, '0');
        out +=
          (number < 0
            ? '-'
            : element.minWidth >= 4 && digits.length > element.minWidth && element.field !== 'yearOfEra'
              ? '+'
              : '') + digits;
        break;
      }
      case 'reducedYear':
        out += String(((fieldValue(element.field, value) % 100) + 100) % 100).padStart(2, '0');
        break;
      case 'fraction':
        out += String(value.nano).padStart(9, '0').slice(0, element.maxWidth);
        break;
      case 'text':
        out += formatText(element.field, element.style, textValue(element.field, value));
        break;
      case 'zone':
        // A local date-time has no zone; Java refuses to format one, Terrain writes nothing.
        break;
    }
  }
  return out;
}

function textValue(field: TextField, value: LocalDateTime): number {
  switch (field) {
    case 'month':
      return value.month;
    case 'dayOfWeek':
      return dayOfWeek(value.year, value.month, value.day);
    case 'era':
      return value.year >= 1 ? 1 : 0;
    case 'amPm':
      return value.hour >= 12 ? 1 : 0;
    case 'quarter':
      return Math.ceil(value.month / 3);
  }
}

function fieldValue(field: NumberField, value: LocalDateTime): number {
  switch (field) {
    case 'year':
    case 'weekBasedYear':
      return value.year;
    case 'yearOfEra':
      return value.year >= 1 ? value.year : 1 - value.year;
    case 'month':
      return value.month;
    case 'day':
      return value.day;
    case 'dayOfYear':
      return toEpochDay(value.year, value.month, value.day) - toEpochDay(value.year, 1, 1) + 1;
    case 'hourOfDay':
      return value.hour;
    case 'clockHourOfDay':
      return value.hour === 0 ? 24 : value.hour;
    case 'hourOfAmPm':
      return value.hour % 12;
    case 'clockHourOfAmPm':
      return value.hour % 12 === 0 ? 12 : value.hour % 12;
    case 'minute':
      return value.minute;
    case 'second':
      return value.second;
    case 'nano':
      return value.nano;
    case 'milliOfDay':
      return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + Math.floor(value.nano / 1e6);
    case 'nanoOfDay':
      return ((value.hour * 60 + value.minute) * 60 + value.second) * 1e9 + value.nano;
    case 'quarter':
      return Math.ceil(value.month / 3);
    case 'localizedDayOfWeek':
      return dayOfWeek(value.year, value.month, value.day);
    case 'weekOfWeekBasedYear':
    case 'alignedWeekOfMonth':
      return Math.floor((value.day - 1) / 7) + 1;
    case 'weekOfMonth':
      return ((value.day - 1) % 7) + 1;
  }
}
