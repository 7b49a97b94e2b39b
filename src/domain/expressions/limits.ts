/**
 * Bounds that keep one evaluation from hurting the process that runs it (a browser worker or the server). They are
 * far above what real configurations need: the largest corpus expression is about 1 KB and runs in a few hundred
 * steps.
 */
export interface EvaluationLimits {
  /** Nodes evaluated, closure calls and elements visited by collection methods, per evaluation. */
  maxSteps: number;
  /** Nested closure calls (recursion through a closure stored in a variable). */
  maxCallDepth: number;
  /** Length of any string the expression builds. */
  maxStringLength: number;
  /** Size of any list or map the expression builds. */
  maxCollectionSize: number;
}

export const DEFAULT_LIMITS: Readonly<EvaluationLimits> = Object.freeze({
  maxSteps: 1_000_000,
  maxCallDepth: 64,
  maxStringLength: 1_000_000,
  maxCollectionSize: 100_000,
});

/** Longest expression text accepted by the compiler. */
export const MAX_SOURCE_LENGTH = 50_000;

/** Deepest nesting of brackets, closures and blocks accepted by the parser (keeps its recursion bounded). */
export const MAX_NESTING = 200;

export function resolveLimits(limits?: Partial<EvaluationLimits>): EvaluationLimits {
  if (!limits) return DEFAULT_LIMITS;
  return {
    maxSteps: limits.maxSteps ?? DEFAULT_LIMITS.maxSteps,
    maxCallDepth: limits.maxCallDepth ?? DEFAULT_LIMITS.maxCallDepth,
    maxStringLength: limits.maxStringLength ?? DEFAULT_LIMITS.maxStringLength,
    maxCollectionSize: limits.maxCollectionSize ?? DEFAULT_LIMITS.maxCollectionSize,
  };
}
