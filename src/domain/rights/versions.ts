import { isWithinScope } from '../deposits/scopeValues';
import { grantAllows, type Rights } from './access';
import type { Operation } from './operations';

/** A deposited version as rights see it: the dataset it belongs to (scope and period) and whether it is published. */
export interface VersionPlace {
  /** Reference-scope component → hierarchical key of the dataset's row. */
  scopes: Record<string, string>;
  /** ISO local date-times of the dataset's period, when its data has a time scope. */
  from: string | null;
  to: string | null;
  published: boolean;
}

/**
 * The operation that opens a version: once published, reading; before, depositing (readers, the public among
 * them, never see data that has not been released).
 */
export function versionOperation(version: Pick<VersionPlace, 'published'>): Operation {
  return version.published ? 'extraction' : 'depot';
}

/**
 * Whether a caller may open a version: list it, follow its publication, download its file. A file is served whole,
 * so the grant must cover the version — its scope and its period inside the granted ones, as a deposit requires —
 * not merely reach part of it: whoever may read only some of its rows reads them through the data exports.
 * Unpublished versions, one's own included, are thus open to whoever could have deposited them there.
 */
export function mayOpenVersion(rights: Rights, dataName: string, version: VersionPlace): boolean {
  return rights.covers(versionOperation(version), dataName, version);
}

/**
 * Whether the caller's reading reaches some of a version's rows: its scope and a granted one lie one under the
 * other, and its period meets the granted one. Such a reader is told the version is not theirs whole (and reads
 * their rows through the exports); to anyone else it is as if it did not exist.
 */
export function readsPartOfVersion(rights: Rights, dataName: string, version: VersionPlace): boolean {
  const filter = rights.rowFilter('extraction', dataName);
  if (filter.kind !== 'some') return filter.kind === 'all';
  const period = { scopes: {}, start: version.from, end: version.to };
  return filter.grants.some(
    (grant) =>
      Object.entries(grant.scopes).every(([component, keys]) => {
        const value = version.scopes[component];
        return value !== undefined && keys.some((key) => isWithinScope(value, key) || isWithinScope(key, value));
      }) && grantAllows({ ...grant, scopes: {} }, period),
  );
}
