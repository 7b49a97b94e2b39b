import { withEachLeadingNullParts, withoutLeadingNullParts } from '../keys';

/**
 * Naming a row of a scope reference. People write a natural key (`projet_manche`), a hierarchical key
 * (`type_de_sitesKplateforme.sitesKoir`), or the path of natural keys the original's file names use
 * (`plateforme.oir`); all three name the same row.
 */
export interface ScopeRow {
  naturalKey: string;
  hierarchicalKey: string;
}

/** The hierarchical key without the `<dataName>K` prefix of each label. */
export function naturalPath(hierarchicalKey: string): string {
  return hierarchicalKey
    .split('.')
    .map((label) => {
      const marker = label.indexOf('K');
      return marker >= 0 ? label.slice(marker + 1) : label;
    })
    .join('.');
}

/** The row whose natural key is the path's last label, when exactly one row has it. */
function onlyRowEndingThePath<Row extends ScopeRow>(rows: readonly Row[], path: string): Row | undefined {
  const last = withoutLeadingNullParts(path.slice(path.lastIndexOf('.') + 1));
  const found = rows.filter((row) => withoutLeadingNullParts(row.naturalKey) === last);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The row a text names by its hierarchical key, its path of natural keys or its natural key: each of these names
 * one row at most.
 */
export function findNamedScopeRow<Row extends ScopeRow>(rows: readonly Row[], text: string): Row | undefined {
  const wanted = text.trim();
  return (
    rows.find((row) => row.hierarchicalKey === wanted) ??
    rows.find((row) => naturalPath(row.hierarchicalKey) === wanted) ??
    rows.find((row) => row.naturalKey === wanted)
  );
}

/**
 * The row a text names: its hierarchical key, its path of natural keys, its natural key, or — for the paths the
 * original's file names hold, whose ancestors are written otherwise than ours (`plateforme.scarff.scarff__p1` for the
 * row under `bassin_versant.NULL_KEY__scarff`) — the path's last label when it names one row only.
 */
export function findScopeRow<Row extends ScopeRow>(rows: readonly Row[], text: string): Row | undefined {
  const wanted = text.trim();
  return findNamedScopeRow(rows, wanted) ?? (wanted.includes('.') ? onlyRowEndingThePath(rows, wanted) : undefined);
}

/**
 * The few rows of a scope reference among which {@link findScopeRow} finds the row a text names, so that a server
 * reads those instead of every row. A row's own label is `<dataName>K<naturalKey>` and data names hold no `K`, so a
 * path names a row whose natural key is its last label; `pathEnds`, for a path only, are the natural keys (with each
 * number of leading empty parts a key of `keyParts` parts may have) of the rows its last label may name when nothing
 * else matches.
 */
export function scopeRowLookup(
  text: string,
  keyParts: number,
): {
  hierarchicalKey: string;
  naturalKeys: string[];
  pathEnds: string[] | null;
} {
  const wanted = text.trim();
  const last = wanted.slice(wanted.lastIndexOf('.') + 1);
  return {
    hierarchicalKey: wanted,
    naturalKeys: [...new Set([wanted, last])],
    pathEnds: wanted.includes('.') ? withEachLeadingNullParts(last, keyParts) : null,
  };
}

/** Whether a row's key is the scope key or lies under it. */
export function isWithinScope(hierarchicalKey: string, scope: string): boolean {
  return hierarchicalKey === scope || hierarchicalKey.startsWith(`${scope}.`);
}
