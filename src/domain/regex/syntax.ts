import type { CharTest } from './characters';

/** Zero-width tests, with Java's rules for each (see `assertionHolds`). */
export type Assertion =
  /** `^` (without MULTILINE), `\A`. */
  | { readonly kind: 'inputStart' }
  /** `\G`: where the search began (the end of the previous match). */
  | { readonly kind: 'searchStart' }
  /** `\z`. */
  | { readonly kind: 'inputEnd' }
  /** `$` and `\Z`: the end, or before a line terminator that ends the input (any line terminator when multiline). */
  | { readonly kind: 'lineEnd'; readonly multiline: boolean; readonly unixLines: boolean }
  /** `^` with MULTILINE: the start, or after a line terminator that does not end the input. */
  | { readonly kind: 'lineStart'; readonly unixLines: boolean }
  /** `\b`, `\B`. */
  | { readonly kind: 'wordBoundary'; readonly negated: boolean; readonly unicode: boolean };

export type RegexNode =
  /** One code point of a set; `literal` when the set is that one code point (for the literal fast paths). */
  | { readonly kind: 'char'; readonly test: CharTest; readonly literal?: number }
  | { readonly kind: 'sequence'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alternation'; readonly options: readonly RegexNode[] }
  | { readonly kind: 'group'; readonly body: RegexNode; readonly capture: number | null }
  | {
      readonly kind: 'repeat';
      readonly body: RegexNode;
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
    }
  | { readonly kind: 'assertion'; readonly assertion: Assertion };

/** A pattern read by the parser. */
export interface ParsedRegex {
  readonly node: RegexNode;
  /** Capturing groups, named ones included, numbered by their opening parenthesis as Java does. */
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;
}

/** A pattern Java would refuse, or one that needs backtracking; `index` is where, in the pattern. */
export class RegexSyntaxError extends Error {
  constructor(
    description: string,
    readonly index: number,
  ) {
    super(`${description} near index ${index}`);
  }
}
