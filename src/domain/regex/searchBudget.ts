import { compileJavaRegex, type Tick } from './index';

/** Steps a search may take on one value: the engine is linear, this bounds long values. */
const VALUE_STEPS = 1_000_000;

/**
 * Steps the searches of one request may take over all the values it reads together. A value's own budget bounds
 * one value only: a pattern spending it on each row of a large list held the request thread as long as the list is
 * long.
 */
export const SELECTION_REGEX_STEPS = 10_000_000;

/**
 * Steps the patterns of one form (a rights request, an additional file's fields) may take over all its values,
 * on the device and on the server alike. An honest form spends a few thousand; a pattern whose DFA keeps
 * overflowing spends about a thousand a character: this holds a form's check to a fraction of a second of the
 * request thread however many fields and long values it carries (figures in docs/decisions.md).
 */
export const FORM_REGEX_STEPS = 2_000_000;

/** What is left of a request's search steps, shared by its filters; `exceeded` names the filter that ran out. */
export interface RegexBudget {
  left: number;
  exceeded?: string;
}

export const regexBudget = (steps = SELECTION_REGEX_STEPS): RegexBudget => ({ left: steps });

/** Thrown by a {@link valueTick} once its value or its budget is spent: the match under way stops. */
export class RegexBudgetExceeded extends Error {
  constructor(readonly spentBy: string) {
    super('regex budget');
  }
}

/**
 * The tick of one match of one value, spending `budget` under the name `name`: once the budget is spent — or this
 * value alone took more than its own share — it marks the budget exceeded and throws {@link RegexBudgetExceeded}.
 */
export function valueTick(budget: RegexBudget, name: string): Tick {
  let steps = 0;
  return (taken) => {
    steps += taken;
    budget.left -= taken;
    if (steps > VALUE_STEPS || budget.left < 0) {
      budget.exceeded ??= name;
      throw new RegexBudgetExceeded(name);
    }
  };
}

/**
 * Whether a value holds a match of `pattern` (Java's `find`), spending `budget` under the name `filter`; once the
 * budget is spent — or one value alone took more than its own share — nothing more matches, and the caller refuses
 * the request: a value left unsearched is never answered as one that does not match. Null when the pattern is not a
 * pattern the engine reads.
 */
export function budgetedSearch(
  pattern: string,
  filter: string,
  budget: RegexBudget,
): ((value: string | undefined) => boolean) | null {
  const compiled = compileJavaRegex(pattern);
  if (!compiled.ok) return null;
  const regex = compiled.regex;
  return (value) => {
    if (value === undefined || budget.exceeded !== undefined) return false;
    try {
      return regex.find(value, 0, valueTick(budget, filter)) !== null;
    } catch (thrown) {
      if (thrown instanceof RegexBudgetExceeded) return false;
      throw thrown;
    }
  };
}
