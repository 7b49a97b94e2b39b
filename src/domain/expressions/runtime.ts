import type { ExpressionContext } from './context';
import type { GroovyClosure } from './groovyValues';

/** What built-in methods, static calls and helpers need from the evaluation that calls them. */
export interface Runtime {
  readonly context: ExpressionContext;
  /** Counts work against the step budget; throws `expressionTooLong` when it is spent. */
  tick(steps?: number): void;
  call(closure: GroovyClosure, args: readonly unknown[]): unknown;
  /** Throws `valueTooLarge` before a string longer than the limit is built. */
  checkString(length: number): void;
  /** Throws `valueTooLarge` before a list or map larger than the limit is built. */
  checkSize(size: number): void;
  /** Groovy's text of a value, refused (`valueTooLarge`) when it would be longer than the string limit. */
  text(value: unknown): string;
}
