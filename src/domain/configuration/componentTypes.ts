import type { Checker, Component, LineValidation, TimeScope } from './model';

/**
 * What each component of an entry holds, as scopes need to know it: a component is a reference when its checker
 * or a line validation on it is an `OA_reference` checker, a date when either is an `OA_date` checker (§11, §13).
 */
export interface ComponentTypes {
  keys: readonly string[];
  referenceOf: ReadonlyMap<string, string>;
  dateOf: ReadonlyMap<string, Omit<TimeScope, 'component'>>;
  /** Components whose checker was invalid: already reported, so scope checks leave them alone. */
  unresolved: ReadonlySet<string>;
}

export function componentTypes(
  components: readonly Component[],
  validations: readonly LineValidation[],
  unresolved: ReadonlySet<string>,
): ComponentTypes {
  const referenceOf = new Map<string, string>();
  const dateOf = new Map<string, Omit<TimeScope, 'component'>>();
  const note = (component: string, checker: Checker | null) => {
    if (checker?.kind === 'reference' && !referenceOf.has(component)) referenceOf.set(component, checker.reference);
    if (checker?.kind === 'date' && !dateOf.has(component))
      dateOf.set(component, { pattern: checker.pattern, duration: checker.duration });
  };
  for (const component of components) note(component.key, component.checker);
  for (const validation of validations)
    for (const component of validation.components) note(component, validation.checker);
  return { keys: components.map((component) => component.key), referenceOf, dateOf, unresolved };
}
