import type { DomainError } from './index.ts';
import type { RefusalCode } from './refusalCodes.ts';

/** A request refused by a rule of the product: a catalogued code and the values its message interpolates. */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly params: Record<string, unknown> = {},
    /** When trying again may succeed, in seconds (a 429's or a 503's Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

/**
 * Input refused by one of the domain's own checks (rights rules, a pattern, a row query, a form): its problem's
 * code and params as the domain wrote them; the edge answers 400.
 */
export class InvalidInput extends Error {
  readonly code: string;
  readonly params: Record<string, unknown>;

  constructor(problem: Pick<DomainError, 'code' | 'params'>, extra: Record<string, unknown> = {}) {
    super(problem.code);
    this.code = problem.code;
    this.params = { ...problem.params, ...extra };
  }
}
