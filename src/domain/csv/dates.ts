/**
 * Date checking for the CSV engine: the configuration's Java date pattern (parsed and formatted by
 * `configuration/javaDatePattern`), plus a fast path for the common all-numeric fixed-width patterns (`dd/MM/yyyy`,
 * `MM/yyyy`, `HH:mm:ss`, `dd/MM/yyyy HH:mm`…) that gives the same results without building objects. Texts the
 * fast path does not recognise go through the full parser, so both always agree.
 */
import { compileJavaDatePattern, type JavaDatePattern } from '../configuration/javaDatePattern';
import {
  compareLocalDateTime,
  lengthOfMonth,
  toIsoLocalDateTime,
  type LocalDateTime,
} from '../configuration/localDateTime';

type Field = 'day' | 'month' | 'year' | 'hour' | 'minute' | 'second';

interface FastPart {
  field: Field | null;
  /** Literal text when `field` is null. */
  text: string;
  start: number;
  width: number;
}

const FAST_LETTERS: Record<string, { field: Field; width: number }> = {
  dd: { field: 'day', width: 2 },
  MM: { field: 'month', width: 2 },
  yyyy: { field: 'year', width: 4 },
  uuuu: { field: 'year', width: 4 },
  HH: { field: 'hour', width: 2 },
  mm: { field: 'minute', width: 2 },
  ss: { field: 'second', width: 2 },
};

function fastParts(pattern: string): FastPart[] | null {
  const parts: FastPart[] = [];
  let position = 0;
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index];
    if (/[A-Za-z]/.test(character)) {
      let end = index;
      while (end < pattern.length && pattern[end] === character) end += 1;
      const letters = FAST_LETTERS[pattern.slice(index, end)];
      if (!letters || parts.some((part) => part.field === letters.field)) return null;
      parts.push({ field: letters.field, text: '', start: position, width: letters.width });
      position += letters.width;
      index = end;
    } else if ("'[]#{}".includes(character)) {
      return null;
    } else {
      parts.push({ field: null, text: character, start: position, width: 1 });
      position += 1;
      index += 1;
    }
  }
  return parts;
}

function digits(text: string, start: number, width: number): number {
  let value = 0;
  for (let index = start; index < start + width; index += 1) {
    const code = text.charCodeAt(index) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : `${value}`);

export interface CompiledDateChecker {
  readonly pattern: JavaDatePattern;
  /** The ISO local date-time of a text (`1984-12-25T00:00:00`), or null when the text does not match the pattern. */
  isoOf(text: string): string | null;
  parse(text: string): LocalDateTime | null;
}

export function compileDateChecker(source: string): CompiledDateChecker | null {
  const compiled = compileJavaDatePattern(source);
  if (!compiled.ok) return null;
  const pattern = compiled.pattern;
  const parts = fastParts(source);
  const length = parts ? parts.reduce((total, part) => total + part.width, 0) : -1;
  const fields = parts?.filter((part) => part.field !== null) ?? [];
  const literals = parts?.filter((part) => part.field === null) ?? [];

  const slow = (text: string): string | null => {
    const value = pattern.parse(text);
    return value === null ? null : toIsoLocalDateTime(value);
  };

  const fast = (text: string): string | null | undefined => {
    if (text.length !== length) return undefined;
    for (const literal of literals) if (text.charCodeAt(literal.start) !== literal.text.charCodeAt(0)) return undefined;
    let year = 1970;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    for (const part of fields) {
      const value = digits(text, part.start, part.width);
      if (value < 0) return undefined;
      switch (part.field) {
        case 'day':
          if (value < 1 || value > 31) return null;
          day = value;
          break;
        case 'month':
          if (value < 1 || value > 12) return null;
          month = value;
          break;
        case 'year':
          if (value < 1) return undefined;
          year = value;
          break;
        case 'hour':
          if (value > 23) return null;
          hour = value;
          break;
        case 'minute':
          if (value > 59) return null;
          minute = value;
          break;
        case 'second':
          if (value > 59) return null;
          second = value;
          break;
      }
    }
    if (day > lengthOfMonth(year, month)) return null;
    const yearText = year < 1000 ? String(year).padStart(4, '0') : String(year);
    return `${yearText}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
  };

  return {
    pattern,
    isoOf(text) {
      if (parts) {
        const result = fast(text);
        if (result !== undefined) return result;
      }
      return slow(text);
    },
    parse: (text) => pattern.parse(text),
  };
}

/** Reads an ISO local date-time this module wrote back into its fields. */
export function parseIsoLocalDateTime(iso: string): LocalDateTime | null {
  const match = /^([+-]?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(iso);
  if (!match) return null;
  return {
    year: Number(match[1]),
    month: Number(match[2]),
    day: Number(match[3]),
    hour: Number(match[4]),
    minute: Number(match[5]),
    second: Number(match[6]),
    nano: match[7] ? Number(match[7].padEnd(9, '0')) : 0,
  };
}

export function compareIso(a: string, b: string): number {
  const left = parseIsoLocalDateTime(a);
  const right = parseIsoLocalDateTime(b);
  if (!left || !right) return a < b ? -1 : a > b ? 1 : 0;
  return compareLocalDateTime(left, right);
}
