import type { ApplicationOutline, EntryOutline } from '../applications/outline';
import { isWithinScope } from '../deposits/scopeValues';
import type { AuthorizationRequest, AuthorizationRules } from './authorization';
import type { Rights } from './access';
import { PUBLIC_OPERATIONS, inducedOperations, isScoped, withDependencies, type Operation } from './operations';

/**
 * The rights table of the authorization form: per data entry, operations checked on the whole entry and, for
 * data with an authorization scope, on nodes of its scope trees. Pure state and rules; the screen draws it.
 */
export interface ScopeTreeNode {
  id: string;
  children: ScopeTreeNode[];
}

export interface EntryRights {
  /** Operations on the whole entry. */
  all: Operation[];
  /** Scope component → operation → checked node keys (a checked node stands for its whole sub-tree). */
  nodes: Record<string, Partial<Record<Operation, string[]>>>;
}

export type RightsTableState = Record<string, EntryRights>;

/** 1 checked, 0 unchecked, -1 partly (a node below is checked). */
export type CheckState = 1 | 0 | -1;

const empty = (): EntryRights => ({ all: [], nodes: {} });

export function entryState(state: RightsTableState, dataName: string): EntryRights {
  return state[dataName] ?? empty();
}

/** The state of the whole-entry checkbox of an operation. */
export function entryCheck(state: RightsTableState, dataName: string, operation: Operation): CheckState {
  const entry = entryState(state, dataName);
  if (entry.all.includes(operation)) return 1;
  return Object.values(entry.nodes).some((ops) => (ops[operation] ?? []).length > 0) ? -1 : 0;
}

/** The state of a node's checkbox: checked itself or through an ancestor, partly through a descendant. */
export function nodeCheck(
  state: RightsTableState,
  dataName: string,
  component: string,
  operation: Operation,
  node: string,
): CheckState {
  const entry = entryState(state, dataName);
  if (entry.all.includes(operation)) return 1;
  const checked = entry.nodes[component]?.[operation] ?? [];
  if (checked.some((key) => isWithinScope(node, key))) return 1;
  return checked.some((key) => isWithinScope(key, node)) ? -1 : 0;
}

function withOperations(
  entry: EntryOutline,
  current: Set<Operation>,
  operation: Operation,
  checked: boolean,
): Set<Operation> {
  if (checked) return withDependencies([...current, operation], entry);
  // Unchecking removes what depended on the operation, then what is no longer needed stays as chosen.
  return new Set([...current].filter((o) => o !== operation && !withDependencies([o], entry).has(operation)));
}

/** Checks or unchecks an operation on the whole entry, with the operations it brings or that need it. */
export function toggleEntry(
  state: RightsTableState,
  entry: EntryOutline,
  operation: Operation,
  checked: boolean,
): RightsTableState {
  const current = entryState(state, entry.name);
  const all = withOperations(entry, new Set(current.all), operation, checked);
  // A right on the whole entry makes node rights for the same operations pointless.
  const nodes = Object.fromEntries(
    Object.entries(current.nodes).map(([component, ops]) => [
      component,
      Object.fromEntries(Object.entries(ops).filter(([op]) => !all.has(op as Operation))),
    ]),
  );
  return { ...state, [entry.name]: { all: [...all], nodes } };
}

/** Every node key of a tree, with its path of ancestors. */
function findPath(nodes: ScopeTreeNode[], key: string, path: ScopeTreeNode[] = []): ScopeTreeNode[] | undefined {
  for (const node of nodes) {
    if (node.id === key) return [...path, node];
    const found = findPath(node.children, key, [...path, node]);
    if (found) return found;
  }
  return undefined;
}

/** Keys of a set of checked nodes, simplified: a parent whose every child is checked is checked instead. */
function simplify(tree: ScopeTreeNode[], keys: string[]): string[] {
  let result = [...new Set(keys)];
  const visit = (nodes: ScopeTreeNode[]) => {
    for (const node of nodes) {
      visit(node.children);
      if (node.children.length > 0 && node.children.every((child) => result.some((k) => isWithinScope(child.id, k)))) {
        result = [...result.filter((k) => !isWithinScope(k, node.id)), node.id];
      }
    }
  };
  visit(tree);
  return result.filter((key, _, all) => !all.some((other) => other !== key && isWithinScope(key, other)));
}

function setNode(keys: string[], tree: ScopeTreeNode[], node: string, checked: boolean): string[] {
  if (checked) return simplify(tree, [...keys.filter((k) => !isWithinScope(k, node)), node]);
  const holder = keys.find((key) => isWithinScope(node, key));
  if (!holder) return keys.filter((k) => !isWithinScope(k, node));
  // Unchecking under a checked ancestor: the ancestor gives way to the siblings along the path.
  const path = findPath(tree, node) ?? [];
  const start = path.findIndex((n) => n.id === holder);
  const result = keys.filter((k) => k !== holder);
  for (let i = start; i < path.length - 1; i++) {
    for (const sibling of path[i].children) if (sibling.id !== path[i + 1].id) result.push(sibling.id);
  }
  return simplify(tree, result);
}

/** Checks or unchecks an operation on one node of a scope tree, with operation dependencies on the same node. */
export function toggleNode(
  state: RightsTableState,
  entry: EntryOutline,
  component: string,
  tree: ScopeTreeNode[],
  node: string,
  operation: Operation,
  checked: boolean,
): RightsTableState {
  const current = entryState(state, entry.name);
  const ops = { ...(current.nodes[component] ?? {}) };
  const heldHere = new Set(
    (Object.keys(ops) as Operation[]).filter((op) => (ops[op] ?? []).some((key) => isWithinScope(node, key))),
  );
  const next = withOperations(entry, heldHere, operation, checked);
  for (const op of new Set<Operation>([...heldHere, ...next, operation])) {
    ops[op] = setNode(ops[op] ?? [], tree, node, next.has(op));
  }
  return { ...state, [entry.name]: { all: current.all, nodes: { ...current.nodes, [component]: ops } } };
}

/** Operations of a node or an entry that are there only because another operation needs them (locked). */
export function lockedOperations(entry: EntryOutline, checked: Operation[]): Set<Operation> {
  return inducedOperations(checked, entry);
}

/** The form state from stored rules (the authorization being edited). */
export function stateFromRules(model: ApplicationOutline, rules: AuthorizationRules): RightsTableState {
  const state: RightsTableState = {};
  for (const entry of model.data) {
    const all = rules.forAll[entry.name] ?? [];
    const nodes: EntryRights['nodes'] = {};
    for (const grant of rules.restricted[entry.name] ?? []) {
      for (const [component, keys] of Object.entries(grant.scopes)) {
        for (const op of grant.operations)
          nodes[component] = { ...nodes[component], [op]: [...new Set([...(nodes[component]?.[op] ?? []), ...keys])] };
      }
    }
    if (all.length || Object.keys(nodes).length) state[entry.name] = { all: [...all], nodes };
  }
  return state;
}

export interface Period {
  from: string | null;
  to: string | null;
}

/**
 * The authorization to send: whole-entry rights as `authorizationForAll` (restricted to the period when the entry
 * has a time scope and a period is chosen), node rights as one restriction per operation (components are combined:
 * a row must lie under a checked node of each restricted component). Public ones keep reading only.
 */
export function requestFromState(
  model: ApplicationOutline,
  state: RightsTableState,
  period: Period,
  isPublic: boolean,
): Required<Pick<AuthorizationRequest, 'authorizationForAll' | 'authorizationsWithRestriction'>> {
  const forAll: Record<string, string[]> = {};
  const restricted: NonNullable<AuthorizationRequest['authorizationsWithRestriction']> = {};
  for (const entry of model.data) {
    const rights = state[entry.name];
    if (!rights) continue;
    const keep = (ops: Operation[]) => ops.filter((op) => !isPublic || PUBLIC_OPERATIONS.has(op));
    const timed = entry.authorization?.timeScope != null && (period.from !== null || period.to !== null);
    const all = keep(rights.all);
    const grants = [];
    if (all.length) {
      if (timed)
        grants.push({
          operationTypes: all,
          requiredAuthorizations: {},
          timeScope: { fromDay: period.from, toDay: period.to },
        });
      else forAll[entry.name] = all;
    }
    if (isScoped(entry)) {
      const byOperation = new Map<Operation, Record<string, string[]>>();
      for (const [component, ops] of Object.entries(rights.nodes)) {
        for (const [op, keys] of Object.entries(ops) as Array<[Operation, string[]]>) {
          if (!keys.length || rights.all.includes(op) || !keep([op]).length) continue;
          byOperation.set(op, { ...byOperation.get(op), [component]: keys });
        }
      }
      // Operations with the same nodes go together in one restriction.
      const groups = new Map<string, { operations: Operation[]; scopes: Record<string, string[]> }>();
      for (const [op, scopes] of byOperation) {
        const key = JSON.stringify(Object.entries(scopes).sort());
        const group = groups.get(key) ?? { operations: [], scopes };
        group.operations.push(op);
        groups.set(key, group);
      }
      for (const group of groups.values()) {
        grants.push({
          operationTypes: group.operations,
          requiredAuthorizations: group.scopes,
          timeScope: timed ? { fromDay: period.from, toDay: period.to } : null,
        });
      }
    }
    if (grants.length) restricted[entry.name] = grants;
  }
  return { authorizationForAll: forAll, authorizationsWithRestriction: restricted };
}

/**
 * Whether the granter may give an operation on the whole entry: they hold it and `admin` on every row.
 * The server checks the whole authorization again; this only keeps out of reach the boxes that would be refused.
 */
export function grantableOnEntry(granter: Rights, dataName: string, operation: Operation): boolean {
  return granter.all(operation, dataName) && granter.all('admin', dataName);
}

/** Whether the granter holds an operation and `admin` on a node of one scope component (ignoring the others). */
export function grantableOnNode(
  granter: Rights,
  dataName: string,
  operation: Operation,
  component: string,
  node: string,
): boolean {
  return [operation, 'admin' as const].every((op) => {
    const held = granter.rowFilter(op, dataName);
    if (held.kind !== 'some') return held.kind === 'all';
    return held.grants.some(
      (grant) => !grant.scopes[component] || grant.scopes[component].some((key) => isWithinScope(node, key)),
    );
  });
}
