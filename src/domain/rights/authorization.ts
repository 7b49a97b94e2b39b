import { lengthOfMonth } from '../configuration/localDateTime';
import { compileDateChecker } from '../csv/dates';
import type { ApplicationOutline, EntryOutline } from '../applications/outline';
import type { DomainError } from '../errors';
import { renamedKeys } from '../keys';
import { PUBLIC_OPERATIONS, isOperation, isScoped, withDependencies, type Operation } from './operations';

/** Years the original writes for "no bound" (-999999999-01-01 and +999999999-12-31). */
const OPEN_YEAR = 999_999_999;

/** A right on one data entry, for everything or restricted to sub-trees of its scopes and to a period. */
export interface Grant {
  operations: Operation[];
  /** Scope component → hierarchical keys whose sub-trees are granted; a component not listed is not restricted. */
  scopes: Record<string, string[]>;
  /** Days (YYYY-MM-DD), inclusive; null = no bound. */
  from: string | null;
  to: string | null;
}

/** A named set of rights given to users (or to everyone, for a public authorization). */
export interface AuthorizationRules {
  /** Data name → rights on the whole entry. */
  forAll: Record<string, Operation[]>;
  /** Data name → restricted rights. */
  restricted: Record<string, Grant[]>;
}

/** The authorization as clients send it (the original's CreateAuthorizationRequest). */
export interface AuthorizationRequest {
  uuid?: string | null;
  name?: string;
  description?: string | null;
  usersId?: string[];
  authorizationForAll?: Record<string, string[]>;
  authorizationsWithRestriction?: Record<string, RestrictionRequest | RestrictionRequest[]>;
}

export interface RestrictionRequest {
  operationTypes?: string[];
  requiredAuthorizations?: Record<string, string | string[]>;
  timeScope?: { format?: string | null; fromDay?: string | null; toDay?: string | null } | null;
  fromDay?: string | null;
  toDay?: string | null;
}

export const PUBLIC_USER = '_public_';
/** As long as a rights request's comment: the authorization that grants a request carries its comment whole. */
export const MAX_DESCRIPTION = 255;

export type AuthorizationProblem = DomainError<
  | 'NO_AUTHORIZATION_NAME'
  | 'DESCRIPTION_TOO_LONG'
  | 'UNKNOWN_DATA'
  | 'UNKNOWN_OPERATION'
  | 'UNKNOWN_SCOPE'
  | 'BAD_PERIOD'
  | 'NOTHING_GRANTED'
>;

/**
 * A day written in `format` when it is given (a Java date pattern, as the original's `timeScope.format`; a pattern
 * it cannot read is a refusal), else YYYY-MM-DD, dd/MM/yyyy or dd-MM-yyyy; optionally with a time, ignored. Without
 * reading the format, a `MM/dd/yyyy` day was saved as dd/MM: a silently wrong period.
 */
export function readDay(
  text: string | null | undefined,
  format?: string | null,
): { ok: true; day: string | null } | { ok: false } {
  if (text === null || text === undefined || text.trim() === '') return { ok: true, day: null };
  const value = text.trim();
  if (format) {
    const iso = compileDateChecker(format)?.isoOf(value);
    return iso ? readDay(iso.slice(0, iso.indexOf('T'))) : { ok: false };
  }
  let year: number, month: number, day: number;
  let match = value.match(/^([+-]?\d{4,9})-(\d{2})-(\d{2})/);
  if (match) [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = value.match(/^(\d{2})[/-](\d{2})[/-](\d{4})/)))
    [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return { ok: false };
  if (Math.abs(year) >= OPEN_YEAR) return { ok: true, day: null };
  if (month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month)) return { ok: false };
  return {
    ok: true,
    day: `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  };
}

/**
 * Whether a granted day can be compared with the rows' periods in the database: years 1 to 9999 (PostgreSQL has
 * no year 0, and its timestamps end in 294276). A grant read with a day outside would fail every read of its
 * holder (an export then cut off after its first bytes); such a period is refused when the grant is saved.
 */
const storableDay = (day: string | null) =>
  day === null || (/^\d{4}-\d{2}-\d{2}$/.test(day) && !day.startsWith('0000'));

/** What an authorization or a rights request grants, as clients send it. */
export type RulesRequest = Pick<AuthorizationRequest, 'authorizationForAll' | 'authorizationsWithRestriction'>;

export const grantsNothing = (rules: AuthorizationRules) =>
  Object.keys(rules.forAll).length === 0 && Object.keys(rules.restricted).length === 0;

/**
 * The rules naming by their new keys the scope nodes `renamed` holds (rows an upload moved under another parent),
 * or null when they name none of them: a grant names a node, not the path to it.
 */
export function withRenamedScopeKeys(
  rules: AuthorizationRules,
  renamed: ReadonlyMap<string, string>,
): AuthorizationRules | null {
  let changed = false;
  const restricted: AuthorizationRules['restricted'] = {};
  for (const [dataName, grants] of Object.entries(rules.restricted)) {
    restricted[dataName] = grants.map((grant) => {
      const scopes = { ...grant.scopes };
      for (const [component, keys] of Object.entries(grant.scopes)) {
        const next = renamedKeys(keys, renamed);
        if (next) [scopes[component], changed] = [next, true];
      }
      return { ...grant, scopes };
    });
  }
  return changed ? { ...rules, restricted } : null;
}

/**
 * Checks an authorization against the application and applies the saving rules (see {@link normalizeRules}); one
 * that grants nothing is refused: saved over an existing one, it would take every right away without revoking it.
 */
export function normalizeAuthorization(
  model: ApplicationOutline,
  request: AuthorizationRequest,
  isPublic: boolean,
):
  | { ok: true; name: string; description: string; rules: AuthorizationRules }
  | { ok: false; problems: AuthorizationProblem[] } {
  const problems: AuthorizationProblem[] = [];
  const name = (request.name ?? '').trim();
  if (name === '') problems.push({ code: 'NO_AUTHORIZATION_NAME', params: {} });
  const description = request.description === 'null' ? '' : (request.description ?? '').trim();
  if (description.length > MAX_DESCRIPTION)
    problems.push({ code: 'DESCRIPTION_TOO_LONG', params: { max: MAX_DESCRIPTION } });
  const normalized = normalizeRules(model, request, isPublic);
  if (!normalized.ok) return { ok: false, problems: [...problems, ...normalized.problems] };
  if (grantsNothing(normalized.rules)) problems.push({ code: 'NOTHING_GRANTED', params: {} });
  if (problems.length) return { ok: false, problems };
  return { ok: true, name, description, rules: normalized.rules };
}

/**
 * Checks rights (of an authorization or a rights request) against the application and applies the saving rules:
 * operations bring their dependencies, public authorizations only read, a restriction without scope nor period is
 * a right on everything, a restricted right on data also granted for all is dropped.
 */
export function normalizeRules(
  model: ApplicationOutline,
  request: RulesRequest,
  isPublic: boolean,
): { ok: true; rules: AuthorizationRules } | { ok: false; problems: AuthorizationProblem[] } {
  const problems: AuthorizationProblem[] = [];
  const entries = new Map(model.data.map((entry) => [entry.name, entry]));

  const operationsOf = (entry: EntryOutline, values: unknown[], path: string): Operation[] => {
    const known = values.filter((value) => {
      if (isOperation(value)) return true;
      problems.push({ code: 'UNKNOWN_OPERATION', path, params: { operation: value } });
      return false;
    }) as Operation[];
    const complete = withDependencies(known, entry);
    return [...complete].filter((operation) => !isPublic || PUBLIC_OPERATIONS.has(operation));
  };

  const rules: AuthorizationRules = { forAll: {}, restricted: {} };
  for (const [dataName, operations] of Object.entries(request.authorizationForAll ?? {})) {
    const entry = entries.get(dataName);
    if (!entry) {
      problems.push({ code: 'UNKNOWN_DATA', path: `authorizationForAll > ${dataName}`, params: { dataName } });
      continue;
    }
    const kept = operationsOf(entry, Array.isArray(operations) ? operations : [], `authorizationForAll > ${dataName}`);
    if (kept.length) rules.forAll[dataName] = kept;
  }
  for (const [dataName, raw] of Object.entries(request.authorizationsWithRestriction ?? {})) {
    const entry = entries.get(dataName);
    if (!entry) {
      problems.push({
        code: 'UNKNOWN_DATA',
        path: `authorizationsWithRestriction > ${dataName}`,
        params: { dataName },
      });
      continue;
    }
    if (rules.forAll[dataName]) continue;
    for (const [index, restriction] of (Array.isArray(raw) ? raw : [raw]).entries()) {
      const path = `authorizationsWithRestriction > ${dataName} > ${index}`;
      const operations = operationsOf(entry, restriction?.operationTypes ?? [], path);
      if (operations.length === 0) continue;
      const scopes: Record<string, string[]> = {};
      const scopeComponents = new Set(entry.authorization?.scopes.map((s) => s.component) ?? []);
      for (const [component, keys] of Object.entries(restriction.requiredAuthorizations ?? {})) {
        const list = (Array.isArray(keys) ? keys : [keys]).filter((k) => typeof k === 'string' && k !== '');
        if (!scopeComponents.has(component) && !entry.authorization?.scopes.some((s) => s.reference === component)) {
          problems.push({ code: 'UNKNOWN_SCOPE', path, params: { dataName, scope: component } });
          continue;
        }
        const target = scopeComponents.has(component)
          ? component
          : entry.authorization!.scopes.find((s) => s.reference === component)!.component;
        if (list.length) scopes[target] = [...new Set([...(scopes[target] ?? []), ...list])];
      }
      const from = readDay(restriction.timeScope?.fromDay ?? restriction.fromDay, restriction.timeScope?.format);
      const to = readDay(restriction.timeScope?.toDay ?? restriction.toDay, restriction.timeScope?.format);
      if (
        !from.ok ||
        !to.ok ||
        !storableDay(from.day) ||
        !storableDay(to.day) ||
        (from.day && to.day && from.day > to.day)
      ) {
        problems.push({ code: 'BAD_PERIOD', path, params: { dataName } });
        continue;
      }
      if (Object.keys(scopes).length === 0 && !from.day && !to.day) {
        rules.forAll[dataName] = [...new Set([...(rules.forAll[dataName] ?? []), ...operations])];
        delete rules.restricted[dataName];
        continue;
      }
      if (!isScoped(entry) && Object.keys(scopes).length > 0) {
        problems.push({ code: 'UNKNOWN_SCOPE', path, params: { dataName } });
        continue;
      }
      (rules.restricted[dataName] ??= []).push({ operations, scopes, from: from.day, to: to.day });
    }
  }
  for (const dataName of Object.keys(rules.forAll)) delete rules.restricted[dataName];
  if (problems.length) return { ok: false, problems };
  return { ok: true, rules };
}
