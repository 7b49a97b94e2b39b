/**
 * The Java exception classes a `catch` may name, and the evaluation errors each one stands for. The limits of the
 * engine (steps, recursion, sizes) are no exception in this sense: no `catch` ever stops them, so a check still
 * ends whatever it catches.
 */
import type { EvaluationErrorCode } from './errors';
import { GROOVY_EXCEPTION_NAMES } from './groovyException';

const RUNTIME: readonly EvaluationErrorCode[] = [
  'nullDereference',
  'noSuchProperty',
  'noSuchMethod',
  'badArguments',
  'cannotCast',
  'numberFormat',
  'dateTimeParse',
  'divisionByZero',
  'cannotCompare',
  'indexOutOfBounds',
  'emptyCollection',
  'unknownVariable',
  'unsupportedMapKey',
  'invalidLabel',
  'invalidRegex',
  'groovyException',
];

interface Catchable {
  readonly names: readonly string[];
  readonly codes: readonly EvaluationErrorCode[];
}

const CATCHABLE: readonly Catchable[] = [
  { names: ['Exception', 'java.lang.Exception', 'RuntimeException', 'java.lang.RuntimeException'], codes: RUNTIME },
  {
    names: ['DateTimeParseException', 'java.time.format.DateTimeParseException'],
    codes: ['dateTimeParse'],
  },
  { names: ['DateTimeException', 'java.time.DateTimeException'], codes: ['dateTimeParse'] },
  { names: ['NumberFormatException', 'java.lang.NumberFormatException'], codes: ['numberFormat'] },
  {
    names: ['IllegalArgumentException', 'java.lang.IllegalArgumentException'],
    codes: ['numberFormat', 'badArguments', 'invalidRegex'],
  },
  { names: ['NullPointerException', 'java.lang.NullPointerException'], codes: ['nullDereference'] },
  { names: ['ArithmeticException', 'java.lang.ArithmeticException'], codes: ['divisionByZero'] },
  {
    names: ['IndexOutOfBoundsException', 'java.lang.IndexOutOfBoundsException'],
    codes: ['indexOutOfBounds'],
  },
  { names: GROOVY_EXCEPTION_NAMES, codes: ['groovyException'] },
];

/** The evaluation errors a `catch (Name e)` catches, or undefined for a class that cannot be caught here. */
export function caughtCodes(className: string): readonly EvaluationErrorCode[] | undefined {
  return CATCHABLE.find((catchable) => catchable.names.includes(className))?.codes;
}
