/**
 * Checkers compiled once per file (§10): each turns a cell text into its stored value or reports the original's
 * error code with its params. Multiplicity MANY splits the text on commas as Java does (an empty text is one empty
 * element; trailing empty elements are dropped), trims each element, checks the non-empty ones and stores a list.
 */
import type { Checker } from '../configuration/model';
import { javaTrim, splitOnCommas } from '../keys';
import { runnableRegex, type Tick } from '../regex';
import { compareIso, compileDateChecker, type CompiledDateChecker } from './dates';
import type { CsvErrorCode } from './errors';
import { losesDigits } from './floatDigits';
import type { ReferenceIndex } from './references';
import type { CsvNoteCode } from './notes';
import type { StoredRow, StoredValue } from './types';

/** Returned by a check that failed (the error was reported). */
export const INVALID: unique symbol = Symbol('invalid');
export type CheckResult = StoredValue | typeof INVALID;

/** Where a value goes: the name errors give (`component`) and the CSV column it was read from. */
export interface CheckTarget {
  /** Component key, or `<pattern>::<qualifier>` for pattern parts. */
  readonly component: string;
  /** CSV header of the cell, for the downloadable report. */
  readonly column: string | undefined;
  /** Extra params every error of this target carries (e.g. the validation's name). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** What checks report into: the current row. */
export interface CheckSink {
  error(code: CsvErrorCode, target: CheckTarget, params: Record<string, unknown>, value: string): void;
  link(target: CheckTarget, reference: string, hierarchicalKey: string): void;
  /** A value referring to a row of the file itself: resolved when the whole file is read. Returns the placeholder stored meanwhile. */
  deferSelfReference(target: CheckTarget, text: string, index: number | null): StoredValue;
  /** A value the check could not settle by itself, or read in a way its writer may not mean (see `notes.ts`). */
  note(code: CsvNoteCode, target: CheckTarget, value: string, refType?: string): void;
  /** Evaluates a checker expression on the current row: true, false, or null when it failed (the error was reported). */
  evaluateCheck(checker: Extract<Checker, { kind: 'expression' }>, target: CheckTarget, value: string): boolean | null;
}

export interface CompiledChecker {
  readonly checker: Checker;
  readonly many: boolean;
  /** The stored value of a non-empty text, or INVALID. */
  check(text: string, target: CheckTarget, sink: CheckSink): CheckResult;
  /** Checks one element (a MANY list is checked element by element). */
  checkOne(text: string, target: CheckTarget, sink: CheckSink, index: number | null): CheckResult;
}

export interface CheckerEnvironment {
  /** The entry being read: references to it are resolved at the end of the file. */
  readonly dataName: string;
  reference(name: string): ReferenceIndex;
  /** Whether the device checking the file has no copy of this reference (its values are noted, not refused). */
  withoutCopy(name: string): boolean;
  /** Whether the device's copy of this reference holds only the rows its user may read. */
  partCopy(name: string): boolean;
  /** Whether a row of this reference is known only from an upload still waiting on the device. */
  queued(name: string, row: StoredRow): boolean;
  /**
   * The tick of one pattern match (a form's budget, `searchBudget.ts`: it throws once the budget is spent); files
   * have none, their checks run in workers with a time budget.
   */
  patternTick?(): Tick;
}

/** How many rows of a reference an invalidReferenceWithComponent error names, to show what it holds. */
export const REFERENCE_SAMPLE = 10;
const DATE_CACHE_SIZE = 50_000;

/** Java's Integer.parseInt on a trimmed text: an optional sign and ASCII digits, within 32 bits. */
export function parseInteger(text: string): number | null {
  const length = text.length;
  let index = 0;
  const first = text.charCodeAt(0);
  if (first === 43 || first === 45) index = 1;
  if (index >= length) return null;
  for (let at = index; at < length; at += 1) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return null;
  }
  const value = Number(text);
  return value >= -2147483648 && value <= 2147483647 ? value : null;
}

/**
 * Java's Float.parseFloat on a trimmed text, decimal forms only: sign, digits with an optional point, an optional
 * exponent and an optional `f`/`d` suffix. NaN, infinities and hexadecimal floats are refused: they cannot be stored.
 */
export function parseFloatText(text: string): number | null {
  let end = text.length;
  const last = text.charCodeAt(end - 1);
  if (last === 102 || last === 70 || last === 100 || last === 68) end -= 1;
  let index = 0;
  const first = text.charCodeAt(0);
  if (first === 43 || first === 45) index = 1;
  let digits = 0;
  let code = text.charCodeAt(index);
  while (index < end && code >= 48 && code <= 57) {
    digits += 1;
    code = text.charCodeAt(++index);
  }
  if (index < end && code === 46) {
    code = text.charCodeAt(++index);
    while (index < end && code >= 48 && code <= 57) {
      digits += 1;
      code = text.charCodeAt(++index);
    }
  }
  if (digits === 0) return null;
  if (index < end && (code === 101 || code === 69)) {
    code = text.charCodeAt(++index);
    if (code === 43 || code === 45) code = text.charCodeAt(++index);
    let exponent = 0;
    while (index < end && code >= 48 && code <= 57) {
      exponent += 1;
      code = text.charCodeAt(++index);
    }
    if (exponent === 0) return null;
  }
  if (index !== end) return null;
  const value = Number(end === text.length ? text : text.slice(0, end));
  return Number.isFinite(value) ? value : null;
}

export function compileChecker(checker: Checker, environment: CheckerEnvironment): CompiledChecker {
  const checkOne = elementChecker(checker, environment);
  const many = checker.multiplicity === 'MANY';
  const numbers = checker.kind === 'float';
  return {
    checker,
    many,
    checkOne,
    check(text, target, sink) {
      if (!many) return checkOne(text, target, sink, null);
      if (numbers && mayHoldDecimalComma(text)) sink.note('decimalCommaInList', target, text);
      const elements = splitOnCommas(text);
      const values: StoredValue[] = new Array(elements.length);
      let failed = false;
      for (let index = 0; index < elements.length; index += 1) {
        const element = javaTrim(elements[index]);
        if (element === '') {
          values[index] = '';
          continue;
        }
        const value = checkOne(element, target, sink, index);
        if (value === INVALID) failed = true;
        else values[index] = value;
      }
      return failed ? INVALID : values;
    },
  };
}

/**
 * A list of floats the original reads as several numbers where a spreadsheet writing decimal commas may have meant
 * one: no decimal point anywhere, and a comma between two digits (`1,5` is 1 and 5, `12,5, 3` is 12, 5 and 3). The
 * list is still read as the original reads it; a device tells its user (fidelity audit S4).
 */
function mayHoldDecimalComma(text: string): boolean {
  if (text.includes('.')) return false;
  for (let at = text.indexOf(','); at > 0; at = text.indexOf(',', at + 1)) {
    if (isDigit(text.charCodeAt(at - 1)) && isDigit(text.charCodeAt(at + 1))) return true;
  }
  return false;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

type ElementCheck = (text: string, target: CheckTarget, sink: CheckSink, index: number | null) => CheckResult;

function elementChecker(checker: Checker, environment: CheckerEnvironment): ElementCheck {
  switch (checker.kind) {
    case 'date':
      return dateCheck(checker, compileDateChecker(checker.pattern));
    case 'integer': {
      const { min, max } = checker;
      return (text, target, sink) => {
        const value = parseInteger(text);
        if (value === null) {
          sink.error('invalidIntegerWithComponent', target, { value: text }, text);
          return INVALID;
        }
        if (min !== null && value < min)
          return outOfBounds(sink, 'badIntervalIntegerWithComponent', target, text, 'LOWER_THAN_MIN', min);
        if (max !== null && value > max)
          return outOfBounds(sink, 'badIntervalIntegerWithComponent', target, text, 'HIGHER_THAN_MAX', max);
        return value;
      };
    }
    case 'float': {
      const { min, max } = checker;
      const many = checker.multiplicity === 'MANY';
      return (text, target, sink) => {
        // The original reads a decimal comma as a point (ONE only: with MANY the comma separates the elements).
        const decimal = many || !text.includes(',') ? text : text.replaceAll(',', '.');
        const value = parseFloatText(decimal);
        if (value === null) {
          sink.error('invalidFloatWithComponent', target, { value: text }, text);
          return INVALID;
        }
        if (losesDigits(decimal, value)) {
          sink.error('floatPrecisionLost', target, { value: text, stored: String(value) }, text);
          return INVALID;
        }
        if (min !== null && value < min)
          return outOfBounds(sink, 'badIntervalFloatWithComponent', target, text, 'LOWER_THAN_MIN', min);
        if (max !== null && value > max)
          return outOfBounds(sink, 'badIntervalFloatWithComponent', target, text, 'HIGHER_THAN_MAX', max);
        return value;
      };
    }
    case 'string': {
      if (!checker.pattern) return (text) => text;
      const regex = runnableRegex(checker.pattern);
      const source = checker.pattern.source;
      return (text, target, sink) => {
        if (regex.matches(text, environment.patternTick?.())) return text;
        sink.error('patternNotMatchedWithComponent', target, { value: text, pattern: source }, text);
        return INVALID;
      };
    }
    case 'boolean': {
      const isTrue = checker.isTrue?.trim().toLowerCase() || null;
      return (text, target, sink) => {
        const lower = text.toLowerCase();
        if (lower === 'true' || (isTrue !== null && lower === isTrue)) return true;
        if (lower === 'false') return false;
        sink.error('invalidBooleanWithComponent', target, { value: text }, text);
        return INVALID;
      };
    }
    case 'reference': {
      const name = checker.reference;
      if (name === environment.dataName)
        return (text, target, sink, index) => sink.deferSelfReference(target, text, index);
      if (environment.withoutCopy(name))
        return (text, target, sink) => {
          sink.note('referenceNotCheckedHere', target, text, name);
          return text;
        };
      const index = environment.reference(name);
      const partCopy = environment.partCopy(name);
      return (text, target, sink) => {
        const row = index.resolve(text);
        if (row !== null && environment.queued(name, row))
          sink.note('referenceKnownFromQueuedUpload', target, text, name);
        if (row === null && partCopy) {
          sink.note('referenceOutsideReadPart', target, text, name);
          return text;
        }
        if (row === null) {
          sink.error(
            'invalidReferenceWithComponent',
            target,
            { value: text, refType: name, referenceValues: index.sampleNaturalKeys(REFERENCE_SAMPLE) },
            text,
          );
          return INVALID;
        }
        sink.link(target, name, row.hierarchicalKey);
        return row.hierarchicalKey;
      };
    }
    case 'expression':
      return (text, target, sink) => {
        const result = sink.evaluateCheck(checker, target, text);
        if (result === null) return INVALID;
        if (!result) {
          sink.error('checkerExpressionReturnedFalse', target, { expression: checker.expression.source }, text);
          return INVALID;
        }
        return text;
      };
  }
}

function outOfBounds(
  sink: CheckSink,
  code: CsvErrorCode,
  target: CheckTarget,
  text: string,
  type: 'LOWER_THAN_MIN' | 'HIGHER_THAN_MAX',
  bound: number | string,
  pattern?: string,
): typeof INVALID {
  sink.error(
    code,
    target,
    pattern === undefined ? { value: text, type, bound } : { value: text, pattern, type, bound },
    text,
  );
  return INVALID;
}

function dateCheck(checker: Extract<Checker, { kind: 'date' }>, compiled: CompiledDateChecker | null): ElementCheck {
  const pattern = checker.pattern;
  const suffix = `:${pattern}`;
  const { min, max } = checker;
  // Dates repeat (one day, many lines): each distinct valid text is converted once.
  const known = new Map<string, string>();
  return (text, target, sink) => {
    const cached = known.get(text);
    if (cached !== undefined) return cached;
    const iso = compiled?.isoOf(text) ?? null;
    if (iso === null) {
      sink.error('invalidDateWithComponent', target, { value: text, pattern }, text);
      return INVALID;
    }
    if (min !== null && compareIso(iso, min.iso) < 0)
      return outOfBounds(sink, 'badIntervalDateWithComponent', target, text, 'LOWER_THAN_MIN', min.text, pattern);
    if (max !== null && compareIso(iso, max.iso) > 0)
      return outOfBounds(sink, 'badIntervalDateWithComponent', target, text, 'HIGHER_THAN_MAX', max.text, pattern);
    const stored = `date:${iso}${suffix}`;
    if (known.size < DATE_CACHE_SIZE) known.set(text, stored);
    return stored;
  };
}

/** The ISO date-time inside a stored date value (`date:<ISO>:<pattern>`). */
export function isoOfStoredDate(value: StoredValue): string | null {
  if (typeof value !== 'string' || !value.startsWith('date:')) return null;
  const end = value.indexOf(':', value.indexOf('T') + 7);
  return end < 0 ? null : value.slice(5, end);
}
