import type { ApplicationModel } from '../configuration/model';
import type { DomainError } from '../errors';
import type { Operation } from '../rights/operations';
import type { RightsTableState } from '../rights/rightsTable';

/**
 * The data an additional file concerns (its "associates"): per data name, the whole entry (no scopes) or nodes
 * of its scope trees (scope component → hierarchical keys, a node standing for its sub-tree).
 */
export type Associates = Record<string, { scopes: Record<string, string[]> }>;

export type AssociatesProblem = DomainError<'BAD_ASSOCIATES' | 'UNKNOWN_DATA' | 'UNKNOWN_SCOPE'>;

/** Checks associates against the application: known data, scope components of that data, keys as texts. */
export function normalizeAssociates(model: ApplicationModel, raw: unknown): { ok: true; associates: Associates } | { ok: false; problems: AssociatesProblem[] } {
  if (raw === undefined || raw === null) return { ok: true, associates: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, problems: [{ code: 'BAD_ASSOCIATES', params: {} }] };
  const problems: AssociatesProblem[] = [];
  const associates: Associates = {};
  for (const [dataName, target] of Object.entries(raw as Record<string, unknown>)) {
    const entry = model.data.find((d) => d.name === dataName);
    if (!entry) {
      problems.push({ code: 'UNKNOWN_DATA', path: `associates > ${dataName}`, params: { dataName } });
      continue;
    }
    const scopes = (target as { scopes?: unknown } | null)?.scopes ?? {};
    if (typeof scopes !== 'object' || scopes === null || Array.isArray(scopes)) {
      problems.push({ code: 'BAD_ASSOCIATES', path: `associates > ${dataName}`, params: { dataName } });
      continue;
    }
    const components = new Set(entry.authorization?.scopes.map((s) => s.component) ?? []);
    const kept: Record<string, string[]> = {};
    for (const [component, keys] of Object.entries(scopes as Record<string, unknown>)) {
      if (!components.has(component)) {
        problems.push({ code: 'UNKNOWN_SCOPE', path: `associates > ${dataName}`, params: { dataName, scope: component } });
        continue;
      }
      const texts = (Array.isArray(keys) ? keys : [keys]).filter((key): key is string => typeof key === 'string' && key !== '');
      if (texts.length) kept[component] = [...new Set(texts)].sort();
    }
    associates[dataName] = { scopes: kept };
  }
  return problems.length ? { ok: false, problems } : { ok: true, associates };
}

/**
 * The association panel reuses the rights table with a single column; its boxes are kept in the table's state
 * under the reading operation (associating a file with data offers it alongside them), which brings no
 * dependency and no locked box.
 */
export const ASSOCIATION_COLUMN: Operation = 'extraction';

export function associatesFromTable(model: ApplicationModel, state: RightsTableState): Associates {
  const associates: Associates = {};
  for (const entry of model.data) {
    const rights = state[entry.name];
    if (!rights) continue;
    if (rights.all.includes(ASSOCIATION_COLUMN)) {
      associates[entry.name] = { scopes: {} };
      continue;
    }
    const scopes: Record<string, string[]> = {};
    for (const [component, operations] of Object.entries(rights.nodes)) {
      const keys = operations[ASSOCIATION_COLUMN] ?? [];
      if (keys.length) scopes[component] = [...keys].sort();
    }
    if (Object.keys(scopes).length) associates[entry.name] = { scopes };
  }
  return associates;
}

export function tableFromAssociates(associates: Associates): RightsTableState {
  return Object.fromEntries(
    Object.entries(associates).map(([dataName, { scopes }]) => [
      dataName,
      Object.keys(scopes).length === 0
        ? { all: [ASSOCIATION_COLUMN], nodes: {} }
        : { all: [], nodes: Object.fromEntries(Object.entries(scopes).map(([component, keys]) => [component, { [ASSOCIATION_COLUMN]: keys }])) },
    ]),
  );
}
