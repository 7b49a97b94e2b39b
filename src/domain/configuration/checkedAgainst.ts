import type { Checker, Component, DataEntry, Expression, LineValidation } from './model';

/** Every checker of a component, those of a pattern component's qualifiers and adjacent columns included. */
export function checkersOf(component: Component): Checker[] {
  const checkers = component.checker ? [component.checker] : [];
  if (component.kind === 'pattern') {
    for (const part of [...component.qualifiers, ...component.adjacents]) if (part.checker) checkers.push(part.checker);
  }
  return checkers;
}

/** Every expression the CSV engine may run on a file of an entry with these components and validations. */
export function expressionsOf(entry: {
  components: readonly Component[];
  validations: readonly LineValidation[];
}): Expression[] {
  const found: Array<Expression | null> = [];
  const checkers = [
    ...entry.components.flatMap(checkersOf),
    ...entry.validations.map((validation) => validation.checker),
  ];
  for (const checker of checkers) if (checker.kind === 'expression') found.push(checker.expression);
  for (const component of entry.components) {
    if (component.kind === 'computed' && component.computation.kind === 'expression')
      found.push(component.computation.expression);
    if ('defaultValue' in component) found.push(component.defaultValue);
    if (component.kind === 'pattern') found.push(...component.qualifiers.map((qualifier) => qualifier.defaultValue));
  }
  return found.filter((expression) => expression !== null);
}

/** Whether rows of `entry` may point to other rows of the same entry: a recursive parent or any reference to itself. */
export function refersToItself(entry: DataEntry): boolean {
  if (entry.hierarchy.recursiveComponent !== null) return true;
  return [...entry.components.flatMap(checkersOf), ...entry.validations.map((validation) => validation.checker)].some(
    (checker) => checker.kind === 'reference' && checker.reference === entry.name,
  );
}

/**
 * The entries whose rows a file of `entry` is checked against, and its rows then point to: those it depends on, and
 * itself when it refers to itself (its stored rows are candidates beside the file's own).
 */
export function checkedAgainst(entry: DataEntry): string[] {
  const names = new Set(entry.dependsOn);
  if (refersToItself(entry)) names.add(entry.name);
  return [...names].sort();
}
