/**
 * `java.time.LocalDate` and `DateTimeFormatter.ofPattern`, for checks that compare the dates of a line. Patterns
 * are read by the same reader as date checkers (javaDatePattern), so `dd/MM/yyyy` means the same in both places,
 * strict resolution included: 31/02 does not parse. A text that does not parse is Java's DateTimeParseException,
 * here the evaluation error `dateTimeParse`.
 */
import { type DatePatternCompilation, compileJavaDatePattern } from '../configuration/javaDatePattern';
import { type LocalDateTime, lengthOfMonth, plusMonths, plusSeconds, toEpochDay } from '../configuration/localDateTime';
import { nullDereference } from './access';
import { compareDates } from './equality';
import { ExpressionError } from './errors';
import { DateFormatterValue, LocalDateValue } from './groovyValues';
import { type MethodTable, badArgument, intArg, method, stringArg } from './methodSupport';
import type { StaticClass } from './staticClass';

/** Patterns read so far: a configuration names a handful, and each line would otherwise read them again. */
const patterns = new Map<string, DatePatternCompilation>();
const MAX_CACHED_PATTERNS = 64;

function readPattern(source: string): DatePatternCompilation {
  let compiled = patterns.get(source);
  if (!compiled) {
    compiled = compileJavaDatePattern(source);
    if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
    patterns.set(source, compiled);
  }
  return compiled;
}

function formatter(source: string): DateFormatterValue {
  const compiled = readPattern(source);
  if (!compiled.ok)
    throw new ExpressionError('badArguments', `Invalid date pattern '${source}': ${compiled.message}`, {
      method: 'DateTimeFormatter.ofPattern',
      pattern: source,
    });
  return new DateFormatterValue(compiled.pattern);
}

/** Java's ISO_LOCAL_DATE, as `LocalDate.parse(text)` reads and `toString()` writes. */
const ISO_LOCAL_DATE = formatter('uuuu-MM-dd');

function midnight(date: LocalDateValue): LocalDateTime {
  return { year: date.year, month: date.month, day: date.day, hour: 0, minute: 0, second: 0, nano: 0 };
}

function dateOf(value: LocalDateTime): LocalDateValue {
  return new LocalDateValue(value.year, value.month, value.day);
}

function parseDate(args: readonly unknown[]): LocalDateValue {
  if (args[0] === null || args[0] === undefined) throw nullDereference('parse a null text as a date');
  const text = stringArg(args, 0, 'LocalDate.parse');
  const format = args.length > 1 ? args[1] : ISO_LOCAL_DATE;
  if (!(format instanceof DateFormatterValue)) throw badArgument('LocalDate.parse', 1, 'a DateTimeFormatter', format);
  const parsed = format.pattern.hasDate ? format.pattern.parse(text) : null;
  if (!parsed)
    throw new ExpressionError(
      'dateTimeParse',
      `Text '${text.slice(0, 80)}' could not be parsed as a date with the pattern '${format.pattern.source}'.`,
      { value: text.slice(0, 200), pattern: format.pattern.source },
    );
  return dateOf(parsed);
}

function dateOfFields(args: readonly unknown[]): LocalDateValue {
  const [year, month, day] = [0, 1, 2].map((k) => intArg(args, k, 'LocalDate.of'));
  if (month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month) || Math.abs(year) > 999_999_999)
    throw new ExpressionError('badArguments', `There is no date ${year}-${month}-${day}.`, {
      method: 'LocalDate.of',
    });
  return new LocalDateValue(year, month, day);
}

function otherDate(args: readonly unknown[], name: string): LocalDateValue {
  const value = args[0];
  if (value instanceof LocalDateValue) return value;
  if (value === null || value === undefined) throw nullDereference(`pass null to ${name}()`);
  throw badArgument(name, 0, 'a LocalDate', value);
}

/** Days added through the calendar (bounded by `intArg`, so the epoch-day arithmetic stays exact). */
function plusDays(date: LocalDateValue, days: number): LocalDateValue {
  return dateOf(plusSeconds(midnight(date), days * 86_400));
}

export const JAVA_TIME_CLASSES: readonly StaticClass[] = [
  {
    names: ['LocalDate', 'java.time.LocalDate'],
    methods: {
      parse: { min: 1, max: 2, invoke: (_rt, args) => parseDate(args) },
      of: { min: 3, max: 3, invoke: (_rt, args) => dateOfFields(args) },
    },
    constants: {},
  },
  {
    names: ['DateTimeFormatter', 'java.time.format.DateTimeFormatter'],
    methods: {
      ofPattern: {
        min: 1,
        max: 1,
        invoke: (_rt, args) => formatter(stringArg(args, 0, 'DateTimeFormatter.ofPattern')),
      },
    },
    constants: { ISO_LOCAL_DATE },
  },
];

/** What configurations ask of a date: comparisons, its fields, simple arithmetic, and its text. */
export const LOCAL_DATE_METHODS: MethodTable<LocalDateValue> = {
  isBefore: method(1, 1, (_rt, date, args) => compareDates(date, otherDate(args, 'isBefore')) < 0),
  isAfter: method(1, 1, (_rt, date, args) => compareDates(date, otherDate(args, 'isAfter')) > 0),
  isEqual: method(1, 1, (_rt, date, args) => compareDates(date, otherDate(args, 'isEqual')) === 0),
  compareTo: method(1, 1, (_rt, date, args) => compareDates(date, otherDate(args, 'compareTo'))),
  getYear: method(0, 0, (_rt, date) => date.year),
  getMonthValue: method(0, 0, (_rt, date) => date.month),
  getDayOfMonth: method(0, 0, (_rt, date) => date.day),
  getDayOfYear: method(
    0,
    0,
    (_rt, date) => toEpochDay(date.year, date.month, date.day) - toEpochDay(date.year, 1, 1) + 1,
  ),
  lengthOfMonth: method(0, 0, (_rt, date) => lengthOfMonth(date.year, date.month)),
  toEpochDay: method(0, 0, (_rt, date) => toEpochDay(date.year, date.month, date.day)),
  plusDays: method(1, 1, (_rt, date, args) => plusDays(date, intArg(args, 0, 'plusDays'))),
  minusDays: method(1, 1, (_rt, date, args) => plusDays(date, -intArg(args, 0, 'minusDays'))),
  plusMonths: method(1, 1, (_rt, date, args) => dateOf(plusMonths(midnight(date), intArg(args, 0, 'plusMonths')))),
  minusMonths: method(1, 1, (_rt, date, args) => dateOf(plusMonths(midnight(date), -intArg(args, 0, 'minusMonths')))),
  plusYears: method(1, 1, (_rt, date, args) => dateOf(plusMonths(midnight(date), 12 * intArg(args, 0, 'plusYears')))),
  minusYears: method(1, 1, (_rt, date, args) =>
    dateOf(plusMonths(midnight(date), -12 * intArg(args, 0, 'minusYears'))),
  ),
  format: method(1, 1, (_rt, date, args) => {
    const format = args[0];
    if (!(format instanceof DateFormatterValue)) throw badArgument('format', 0, 'a DateTimeFormatter', format);
    return format.pattern.format(midnight(date));
  }),
};
