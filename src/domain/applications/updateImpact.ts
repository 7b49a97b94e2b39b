import type { ApplicationModel, Checker, Component, DataEntry, DataKind, TimeScope } from '../configuration/model';
import { stableJson } from '../configuration/serializeModel';
import { periodLengthOf, timeScopeOf } from '../configuration/timeScope';

/** Rows stored per data entry, as the server counts them before an update. */
export type StoredRowCounts = Record<string, number>;

/**
 * How a change weighs on stored rows: `forbidden` would orphan them (refused whatever is confirmed), `dataLoss`
 * deletes stored values or rows (applied only when the update says it accepts that), `info` loses nothing.
 */
export type ImpactSeverity = 'forbidden' | 'dataLoss' | 'info';

export const IMPACT_CHANGES = [
  'entryAdded',
  'entryRemoved',
  'kindChanged',
  'componentAdded',
  'componentRemoved',
  'checkerChanged',
  'naturalKeyChanged',
  'scopeRemoved',
  'timeScopeChanged',
  'validationsChanged',
] as const;
export type ImpactChange = (typeof IMPACT_CHANGES)[number];

/** What makes a checker stricter: stored values it accepted may now be refused. */
export const CHECKER_TIGHTENINGS = ['kind', 'min', 'max', 'pattern', 'multiplicity', 'reference', 'required'] as const;
export type CheckerTightening = (typeof CHECKER_TIGHTENINGS)[number];

/** The codes that refuse an update, or name what it deletes. */
export const BREAKING_CHANGE_CODES = [
  'REMOVED_DATA_WITH_ROWS',
  'CHANGED_DATA_KIND_WITH_ROWS',
  'REMOVED_COMPONENT_WITH_ROWS',
  'CHANGED_NATURAL_KEY_WITH_ROWS',
  'REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR',
  'CHANGED_TIME_SCOPE_WITH_ROWS',
] as const;
export type BreakingChangeCode = (typeof BREAKING_CHANGE_CODES)[number];

export interface ImpactItem {
  change: ImpactChange;
  severity: ImpactSeverity;
  /** The code of a forbidden or data-losing change. */
  code?: BreakingChangeCode;
  component?: string;
  /** Rows of the entry the change deletes, or deletes a value of. */
  rows?: number;
  /** Kinds, natural keys or checker kinds before and after. */
  before?: string[];
  after?: string[];
  /** For `checkerChanged`: what became stricter (empty when the checker only became looser). */
  tightened?: CheckerTightening[];
  /** For `componentAdded`: the new component may not be empty. */
  required?: boolean;
}

/** Stored rows checked again against the new configuration; rows already stored stay as they are. */
export interface RowRevalidation {
  checkedRows: number;
  failingRows: number;
  /** False when only the first `checkedRows` of the entry were checked. */
  complete: boolean;
  examples: Array<{ naturalKey: string; code: string; column?: string }>;
}

export interface EntryImpact {
  dataName: string;
  kind: DataKind;
  rows: number;
  items: ImpactItem[];
  /** Stored rows could stop validating: they are to be checked again with the new configuration. */
  needsRecheck: boolean;
  revalidation?: RowRevalidation;
}

export interface UpdateImpact {
  entries: EntryImpact[];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.join('\u0000') === b.join('\u0000');

/**
 * What an update changes in each data entry, and what that does to the rows already stored: adding and loosening
 * is free, removing stored columns or entries deletes data, and changing what rows, keys and rights hang on (natural
 * key, kind, authorization scopes) is forbidden while rows exist. Entries without rows change freely.
 */
export function updateImpact(previous: ApplicationModel, next: ApplicationModel, rows: StoredRowCounts): UpdateImpact {
  const entries: EntryImpact[] = [];
  const nextEntries = new Map(next.data.map((entry) => [entry.name, entry]));
  for (const before of previous.data) {
    const count = rows[before.name] ?? 0;
    const after = nextEntries.get(before.name);
    const items = after ? entryChanges(before, after, count) : [removedEntry(count)];
    const needsRecheck =
      count > 0 &&
      after !== undefined &&
      !items.some((item) => item.severity === 'forbidden') &&
      items.some(
        (item) =>
          (item.change === 'checkerChanged' && (item.tightened?.length ?? 0) > 0) ||
          (item.change === 'componentAdded' && item.required) ||
          item.change === 'validationsChanged',
      );
    entries.push({ dataName: before.name, kind: before.kind, rows: count, items, needsRecheck });
  }
  const previousNames = new Set(previous.data.map((entry) => entry.name));
  for (const entry of next.data) {
    if (previousNames.has(entry.name)) continue;
    entries.push({
      dataName: entry.name,
      kind: entry.kind,
      rows: 0,
      items: [{ change: 'entryAdded', severity: 'info' }],
      needsRecheck: false,
    });
  }
  return { entries };
}

function removedEntry(count: number): ImpactItem {
  return count > 0
    ? { change: 'entryRemoved', severity: 'dataLoss', code: 'REMOVED_DATA_WITH_ROWS', rows: count }
    : { change: 'entryRemoved', severity: 'info' };
}

function entryChanges(before: DataEntry, after: DataEntry, count: number): ImpactItem[] {
  const held = count > 0;
  const items: ImpactItem[] = [];
  if (after.kind !== before.kind) {
    items.push({
      change: 'kindChanged',
      ...(held ? { severity: 'forbidden', code: 'CHANGED_DATA_KIND_WITH_ROWS' } : { severity: 'info' }),
      before: [before.kind],
      after: [after.kind],
    });
  }
  const nextComponents = new Map(after.components.map((c) => [c.key, c]));
  const previousComponents = new Map(before.components.map((c) => [c.key, c]));
  for (const component of before.components) {
    const kept = nextComponents.get(component.key);
    if (!kept) {
      items.push(
        held
          ? {
              change: 'componentRemoved',
              severity: 'dataLoss',
              code: 'REMOVED_COMPONENT_WITH_ROWS',
              component: component.key,
              rows: count,
            }
          : { change: 'componentRemoved', severity: 'info', component: component.key },
      );
      continue;
    }
    const checker = checkerChange(component, kept);
    if (checker) items.push({ change: 'checkerChanged', severity: 'info', component: component.key, ...checker });
  }
  for (const component of after.components) {
    if (!previousComponents.has(component.key))
      items.push({
        change: 'componentAdded',
        severity: 'info',
        component: component.key,
        required: component.required,
      });
  }
  if (!sameList(before.naturalKey, after.naturalKey)) {
    items.push({
      change: 'naturalKeyChanged',
      ...(held ? { severity: 'forbidden', code: 'CHANGED_NATURAL_KEY_WITH_ROWS' } : { severity: 'info' }),
      before: before.naturalKey,
      after: after.naturalKey,
    });
  }
  const nextScopes = new Set(after.authorization?.scopes.map((s) => s.component) ?? []);
  for (const scope of before.authorization?.scopes ?? []) {
    if (nextScopes.has(scope.component)) continue;
    items.push({
      change: 'scopeRemoved',
      ...(held
        ? { severity: 'forbidden', code: 'REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR' }
        : { severity: 'info' }),
      component: scope.component,
    });
  }
  // Stored rows hold the periods their dates gave (and none before a time scope): rights and deposits are matched
  // on them, so another time scope would leave them wrong.
  const [timeBefore, timeAfter] = [timeScopeOf(before), timeScopeOf(after)];
  const periodsOf = (scope: TimeScope | null) => scope && { component: scope.component, length: periodLengthOf(scope) };
  if (stableJson(periodsOf(timeBefore)) !== stableJson(periodsOf(timeAfter))) {
    items.push({
      change: 'timeScopeChanged',
      ...(held ? { severity: 'forbidden', code: 'CHANGED_TIME_SCOPE_WITH_ROWS' } : { severity: 'info' }),
      before: timeBefore ? [timeBefore.component] : [],
      after: timeAfter ? [timeAfter.component] : [],
    });
  }
  if (stableJson(before.validations) !== stableJson(after.validations))
    items.push({ change: 'validationsChanged', severity: 'info' });
  return items;
}

/** How a kept component's checking changed, or nothing when it checks the same. */
function checkerChange(
  before: Component,
  after: Component,
): Pick<ImpactItem, 'before' | 'after' | 'tightened'> | undefined {
  const tightened = tighteningsOf(before.checker, after.checker);
  if (after.required && !before.required) tightened.push('required');
  const changed =
    tightened.length > 0 ||
    stableJson(before.checker) !== stableJson(after.checker) ||
    before.required !== after.required;
  if (!changed) return undefined;
  return {
    before: [before.checker?.kind ?? 'none'],
    after: [after.checker?.kind ?? 'none'],
    tightened,
  };
}

function tighteningsOf(before: Checker | null, after: Checker | null): CheckerTightening[] {
  if (!after) return [];
  if (!before || before.kind !== after.kind) return ['kind'];
  const found: CheckerTightening[] = [];
  if (before.multiplicity !== after.multiplicity) found.push('multiplicity');
  switch (after.kind) {
    case 'integer':
    case 'float': {
      const was = before as typeof after;
      if (after.min !== null && (was.min === null || after.min > was.min)) found.push('min');
      if (after.max !== null && (was.max === null || after.max < was.max)) found.push('max');
      break;
    }
    case 'date': {
      const was = before as typeof after;
      if (after.pattern !== was.pattern) found.push('pattern');
      if (after.min !== null && (was.min === null || after.min.iso > was.min.iso)) found.push('min');
      if (after.max !== null && (was.max === null || after.max.iso < was.max.iso)) found.push('max');
      break;
    }
    case 'string': {
      const was = before as typeof after;
      if (after.pattern !== null && stableJson(after.pattern) !== stableJson(was.pattern)) found.push('pattern');
      break;
    }
    case 'reference':
      if (after.reference !== (before as typeof after).reference) found.push('reference');
      break;
    case 'boolean':
      if (after.isTrue !== (before as typeof after).isTrue) found.push('pattern');
      break;
    case 'expression':
      if (after.expression.source !== (before as typeof after).expression.source) found.push('pattern');
      break;
  }
  return found;
}

/** Every change of the given severity, with its entry. */
export const itemsOf = (impact: UpdateImpact, severity: ImpactSeverity) =>
  impact.entries.flatMap((entry) =>
    entry.items.filter((item) => item.severity === severity).map((item) => ({ entry, item })),
  );

/**
 * What a data-losing update deletes, as the params of its refusal (`UPDATE_LOSES_DATA`) and as a person confirms it:
 * removed entries and their rows, cleared components and the rows losing values.
 */
export interface DataLossSummary {
  entries: string[];
  rows: number;
  components: string[];
  values: number;
}

/** What a data-losing update deletes (see DataLossSummary). */
export function dataLossSummary(impact: UpdateImpact): DataLossSummary {
  const lost = itemsOf(impact, 'dataLoss');
  const removed = lost.filter(({ item }) => item.change === 'entryRemoved');
  const cleared = lost.filter(({ item }) => item.change === 'componentRemoved');
  return {
    entries: removed.map(({ entry }) => entry.dataName),
    rows: removed.reduce((sum, { item }) => sum + (item.rows ?? 0), 0),
    components: cleared.map(({ entry, item }) => `${entry.dataName}.${item.component}`),
    // Rows losing values: an entry losing two components counts its rows once.
    values: [...new Set(cleared.map(({ entry }) => entry))].reduce((sum, entry) => sum + entry.rows, 0),
  };
}
