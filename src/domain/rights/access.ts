import type { DataEntry } from '../configuration/model';
import { timeScopeOf } from '../configuration/timeScope';
import { isWithinScope } from '../deposits/scopeValues';
import type { AuthorizationRules, Grant } from './authorization';
import type { Operation } from './operations';

/** Where a row of data sits for rights: its scope keys (component → hierarchical key) and its period. */
export interface RowPlace {
  scopes: Record<string, string>;
  /** ISO local date-times of the period the row covers, when its data has a time scope. */
  start?: string | null;
  end?: string | null;
  /**
   * The row's data has a time scope and the row no date (its date component may be left empty): a right held for
   * a period does not reach it.
   */
  undated?: boolean;
}

/** Where a row of the entry sits: the scope keys among its values, and its period (stored dates or ISO texts). */
export function placeOf(
  entry: DataEntry,
  values: Record<string, unknown>,
  start?: Date | string | null,
  end?: Date | string | null,
): RowPlace {
  const scopes: Record<string, string> = {};
  for (const scope of entry.authorization?.scopes ?? []) {
    const value = values[scope.component];
    if (typeof value === 'string') scopes[scope.component] = value;
  }
  const iso = (value: Date | string | null | undefined) =>
    value instanceof Date ? value.toISOString().slice(0, 19) : (value ?? null);
  const place: RowPlace = { scopes, start: iso(start), end: iso(end) };
  if (!place.start && timeScopeOf(entry)) place.undated = true;
  return place;
}

/** Which rows an operation is allowed on. */
export type RowFilter = { kind: 'all' } | { kind: 'none' } | { kind: 'some'; grants: Grant[] };

/** The day after a YYYY-MM-DD day, as the exclusive end of a period. */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 19);
}

function periodMatches(grant: Grant, { start, end, undated }: RowPlace): boolean {
  if (!start) return !undated || (!grant.from && !grant.to);
  const from = grant.from ? `${grant.from}T00:00:00` : null;
  const until = grant.to ? dayAfter(grant.to) : null;
  const rowEnd = end && end > start ? end : null;
  const afterFrom = from === null || (rowEnd ? rowEnd > from : start >= from);
  return afterFrom && (until === null || start < until);
}

export function grantAllows(grant: Grant, place: RowPlace): boolean {
  for (const [component, keys] of Object.entries(grant.scopes)) {
    const value = place.scopes[component];
    if (!value || !keys.some((key) => isWithinScope(value, key))) return false;
  }
  return periodMatches(grant, place);
}

/** Whether the grant covers a whole deposit: its scope lies within the granted keys and its period within the granted one. */
export function grantCovers(
  grant: Grant,
  deposit: { scopes: Record<string, string>; from?: string | null; to?: string | null },
): boolean {
  for (const [component, keys] of Object.entries(grant.scopes)) {
    const value = deposit.scopes[component];
    if (!value || !keys.some((key) => isWithinScope(value, key))) return false;
  }
  if (grant.from && (!deposit.from || deposit.from.slice(0, 10) < grant.from)) return false;
  if (grant.to && (!deposit.to || deposit.to.slice(0, 10) > grant.to)) return false;
  return true;
}

/** A grant's rows, written the same whatever the order its scopes and keys were listed in. */
const rowsOfGrant = (grant: Grant) =>
  JSON.stringify([
    Object.entries(grant.scopes)
      .map(([component, keys]) => [component, [...keys].sort()] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    grant.from,
    grant.to,
  ]);

/**
 * Whether the rows `now` lets through include every row `then` did. A grant that changed counts as withdrawn, even
 * when it widened: telling a wider grant from a narrower one is not worth a doubt about what a reader may see.
 */
export function filterStillCovers(now: RowFilter, then: RowFilter): boolean {
  if (now.kind === 'all' || then.kind === 'none') return true;
  if (now.kind === 'none' || then.kind === 'all') return false;
  const kept = new Set(now.grants.map(rowsOfGrant));
  return then.grants.every((grant) => kept.has(rowsOfGrant(grant)));
}

/**
 * A user's rights on one application: everything for its managers, otherwise the union of the authorizations
 * given to them and of the public ones.
 */
export class Rights {
  constructor(
    /** The user manages the application (manager, creator of its name, platform administrator). */
    readonly manager: boolean,
    private readonly rules: readonly AuthorizationRules[],
  ) {}

  rowFilter(operation: Operation, dataName: string): RowFilter {
    if (this.manager) return { kind: 'all' };
    const grants: Grant[] = [];
    for (const rule of this.rules) {
      if (rule.forAll[dataName]?.includes(operation)) return { kind: 'all' };
      for (const grant of rule.restricted[dataName] ?? []) if (grant.operations.includes(operation)) grants.push(grant);
    }
    return grants.length ? { kind: 'some', grants } : { kind: 'none' };
  }

  /** Allowed on at least part of the data. */
  any(operation: Operation, dataName: string): boolean {
    return this.rowFilter(operation, dataName).kind !== 'none';
  }

  /** Allowed on every row of the data. */
  all(operation: Operation, dataName: string): boolean {
    return this.rowFilter(operation, dataName).kind === 'all';
  }

  allows(operation: Operation, dataName: string, place: RowPlace): boolean {
    const filter = this.rowFilter(operation, dataName);
    return (
      filter.kind === 'all' || (filter.kind === 'some' && filter.grants.some((grant) => grantAllows(grant, place)))
    );
  }

  covers(
    operation: Operation,
    dataName: string,
    deposit: { scopes: Record<string, string>; from?: string | null; to?: string | null },
  ): boolean {
    const filter = this.rowFilter(operation, dataName);
    return (
      filter.kind === 'all' || (filter.kind === 'some' && filter.grants.some((grant) => grantCovers(grant, deposit)))
    );
  }

  /**
   * Whether these rules stay within what this holder may give away: for each right, the same operation and
   * `admin` on (at least) the same rows.
   */
  mayGrant(rules: AuthorizationRules): boolean {
    if (this.manager) return true;
    for (const [dataName, operations] of Object.entries(rules.forAll)) {
      if (!this.all('admin', dataName) || operations.some((operation) => !this.all(operation, dataName))) return false;
    }
    for (const [dataName, grants] of Object.entries(rules.restricted)) {
      for (const grant of grants) {
        for (const operation of [...grant.operations, 'admin' as const]) {
          const mine = this.rowFilter(operation, dataName);
          if (mine.kind === 'all') continue;
          if (mine.kind === 'none') return false;
          const inside = mine.grants.some(
            (held) =>
              Object.entries(held.scopes).every(
                ([component, keys]) =>
                  (grant.scopes[component] ?? []).length > 0 &&
                  grant.scopes[component].every((k) => keys.some((key) => isWithinScope(k, key))),
              ) &&
              (!held.from || (grant.from !== null && grant.from >= held.from)) &&
              (!held.to || (grant.to !== null && grant.to <= held.to)),
          );
          if (!inside) return false;
        }
      }
    }
    return true;
  }
}
