import type { DomainError } from '../errors';
import type { ApplicationModel } from '../configuration/model';

/** Rows stored per data entry, as the server counts them before an update. */
export type StoredRowCounts = Record<string, number>;

export type BreakingChangeCode =
  | 'REMOVED_DATA_WITH_ROWS'
  | 'CHANGED_DATA_KIND_WITH_ROWS'
  | 'REMOVED_COMPONENT_WITH_ROWS'
  | 'CHANGED_NATURAL_KEY_WITH_ROWS'
  | 'REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR';

/**
 * What a new configuration would break in the data already stored: an update may add and rename texts freely,
 * but it may not orphan rows (their entry, their columns, their keys, or the scopes rights were granted on).
 * Entries without rows change freely.
 */
export function findBreakingChanges(
  previous: ApplicationModel,
  next: ApplicationModel,
  rows: StoredRowCounts,
): DomainError<BreakingChangeCode>[] {
  const problems: DomainError<BreakingChangeCode>[] = [];
  const nextEntries = new Map(next.data.map((entry) => [entry.name, entry]));
  for (const before of previous.data) {
    const count = rows[before.name] ?? 0;
    if (count === 0) continue;
    const path = `OA_data > ${before.name}`;
    const after = nextEntries.get(before.name);
    if (!after) {
      problems.push({ code: 'REMOVED_DATA_WITH_ROWS', path, params: { dataName: before.name, rows: count } });
      continue;
    }
    if (after.kind !== before.kind) {
      problems.push({
        code: 'CHANGED_DATA_KIND_WITH_ROWS',
        path,
        params: { dataName: before.name, rows: count, before: before.kind, after: after.kind },
      });
    }
    const nextComponents = new Set(after.components.map((c) => c.key));
    for (const component of before.components) {
      if (!nextComponents.has(component.key)) {
        problems.push({
          code: 'REMOVED_COMPONENT_WITH_ROWS',
          path,
          params: { dataName: before.name, component: component.key, rows: count },
        });
      }
    }
    if (before.naturalKey.join('\u0000') !== after.naturalKey.join('\u0000')) {
      problems.push({
        code: 'CHANGED_NATURAL_KEY_WITH_ROWS',
        path,
        params: { dataName: before.name, before: before.naturalKey, after: after.naturalKey, rows: count },
      });
    }
    const nextScopes = new Set(after.authorization?.scopes.map((s) => s.component) ?? []);
    for (const scope of before.authorization?.scopes ?? []) {
      if (!nextScopes.has(scope.component)) {
        problems.push({
          code: 'REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR',
          path: `${path} > OA_authorizations`,
          params: { dataName: before.name, component: scope.component },
        });
      }
    }
  }
  return problems;
}
