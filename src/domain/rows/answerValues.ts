import type { Checker, Component, DataEntry } from '../configuration/model';
import { naturalKeyInReference } from './cellText';

/** A row's values as answers give them, and the hierarchical keys its reference components point to. */
export interface AnsweredValues {
  values: Record<string, unknown>;
  /** By reference component: the stored hierarchical key (a list with `MANY`), what links and scopes work with. */
  referenceKeys: Record<string, unknown>;
}

function naturalOf(value: unknown, checker: Checker | null): unknown {
  if (checker?.kind !== 'reference') return value;
  if (typeof value === 'string') return value === '' ? value : naturalKeyInReference(value, checker.reference);
  if (Array.isArray(value)) return value.map((item) => naturalOf(item, checker));
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function patternGroups(component: Extract<Component, { kind: 'pattern' }>, value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const qualifiers = new Map(component.qualifiers.map((q) => [q.name, q.checker]));
  const adjacents = new Map(component.adjacents.map((a) => [a.name, a.checker]));
  const named = (cells: unknown, checkers: Map<string, Checker | null>) =>
    isRecord(cells)
      ? Object.fromEntries(
          Object.entries(cells).map(([name, cell]) => [name, naturalOf(cell, checkers.get(name) ?? null)]),
        )
      : cells;
  return value.map((group) =>
    isRecord(group)
      ? {
          ...group,
          value: naturalOf(group.value, component.checker),
          ...('qualifiers' in group ? { qualifiers: named(group.qualifiers, qualifiers) } : {}),
          ...('adjacents' in group ? { adjacents: named(group.adjacents, adjacents) } : {}),
        }
      : group,
  );
}

function answeredValue(component: Component, value: unknown): unknown {
  if (component.kind === 'dynamic' && isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, cell]) => [
        naturalKeyInReference(key, component.reference),
        naturalOf(cell, component.checker),
      ]),
    );
  }
  if (component.kind === 'pattern') return patternGroups(component, value);
  return naturalOf(value, component.checker);
}

/**
 * Stored values as row answers give them, the way the original's do: a value pointing to a reference row is that
 * row's natural key (`b1_1`, not `blocKb1_1`), in reference components, dynamic columns and pattern groups. The
 * stored hierarchical keys of reference components stay in `referenceKeys`. Values of components the entry no
 * longer declares are given as stored.
 */
export function answerValues(entry: Pick<DataEntry, 'components'>, stored: Record<string, unknown>): AnsweredValues {
  const values: Record<string, unknown> = { ...stored };
  const referenceKeys: Record<string, unknown> = {};
  for (const component of entry.components) {
    if (!(component.key in stored)) continue;
    const value = stored[component.key];
    values[component.key] = answeredValue(component, value);
    if (component.checker?.kind === 'reference' && component.kind !== 'pattern') referenceKeys[component.key] = value;
  }
  return { values, referenceKeys };
}
