import type { ApplicationModel } from '../configuration/model';
import type { DomainError } from '../errors';
import { renamedKeys } from '../keys';

/**
 * The data an additional file concerns (its "associates"): per data name, the whole entry (no scopes) or nodes
 * of its scope trees (scope component → hierarchical keys, a node standing for its sub-tree).
 */
export type Associates = Record<string, { scopes: Record<string, string[]> }>;

export type AssociatesProblem = DomainError<'BAD_ASSOCIATES' | 'UNKNOWN_DATA' | 'UNKNOWN_SCOPE'>;

/** Checks associates against the application: known data, scope components of that data, keys as texts. */
export function normalizeAssociates(
  model: ApplicationModel,
  raw: unknown,
): { ok: true; associates: Associates } | { ok: false; problems: AssociatesProblem[] } {
  if (raw === undefined || raw === null) return { ok: true, associates: {} };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, problems: [{ code: 'BAD_ASSOCIATES', params: {} }] };
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
        problems.push({
          code: 'UNKNOWN_SCOPE',
          path: `associates > ${dataName}`,
          params: { dataName, scope: component },
        });
        continue;
      }
      const texts = (Array.isArray(keys) ? keys : [keys]).filter(
        (key): key is string => typeof key === 'string' && key !== '',
      );
      if (texts.length) kept[component] = [...new Set(texts)].sort();
    }
    associates[dataName] = { scopes: kept };
  }
  return problems.length ? { ok: false, problems } : { ok: true, associates };
}

/**
 * The associates naming by their new keys the scope nodes `renamed` holds (rows an upload moved under another
 * parent), or null when they name none of them.
 */
export function withRenamedAssociateKeys(
  associates: Associates,
  renamed: ReadonlyMap<string, string>,
): Associates | null {
  let changed = false;
  const next: Associates = {};
  for (const [dataName, target] of Object.entries(associates)) {
    const scopes = { ...target.scopes };
    for (const [component, keys] of Object.entries(target.scopes)) {
      const renamedList = renamedKeys(keys, renamed);
      if (renamedList) [scopes[component], changed] = [renamedList.sort(), true];
    }
    next[dataName] = { ...target, scopes };
  }
  return changed ? next : null;
}

/** The file is attached to the whole of a data entry (no scope node named). */
export const attachedToWhole = (associates: Associates, dataName: string) =>
  associates[dataName] !== undefined && Object.keys(associates[dataName].scopes).length === 0;

/** Attaches the file to the whole of a data entry, or detaches it from that entry altogether. */
export function toggleWholeData(associates: Associates, dataName: string): Associates {
  const { [dataName]: _current, ...others } = associates;
  return attachedToWhole(associates, dataName) ? others : { ...others, [dataName]: { scopes: {} } };
}

/** The node is chosen itself, or lies under a chosen node (hierarchical keys: `a.b` lies under `a`). */
export function nodeChosen(
  associates: Associates,
  dataName: string,
  component: string,
  key: string,
): 'self' | 'ancestor' | 'whole' | null {
  const target = associates[dataName];
  if (!target) return null;
  if (attachedToWhole(associates, dataName)) return 'whole';
  const keys = target.scopes[component] ?? [];
  if (keys.includes(key)) return 'self';
  return keys.some((chosen) => key.startsWith(`${chosen}.`)) ? 'ancestor' : null;
}

/**
 * Attaches the file to one node of a scope tree (a node stands for its sub-tree: chosen nodes below it are
 * dropped), or detaches it; an entry left with no node is detached.
 */
export function toggleScopeNode(associates: Associates, dataName: string, component: string, key: string): Associates {
  const target = associates[dataName];
  const scopes = target && Object.keys(target.scopes).length > 0 ? target.scopes : {};
  const keys = scopes[component] ?? [];
  const next = keys.includes(key)
    ? keys.filter((k) => k !== key)
    : [...keys.filter((k) => !k.startsWith(`${key}.`)), key].sort();
  const { [component]: _dropped, ...otherScopes } = scopes;
  const nextScopes = next.length ? { ...otherScopes, [component]: next } : otherScopes;
  const { [dataName]: _entry, ...others } = associates;
  return Object.keys(nextScopes).length ? { ...others, [dataName]: { scopes: nextScopes } } : others;
}
