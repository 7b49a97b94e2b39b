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

export function findScopeRow<Row extends ScopeRow>(rows: readonly Row[], text: string): Row | undefined {
  const wanted = text.trim();
  return (
    rows.find((row) => row.hierarchicalKey === wanted) ??
    rows.find((row) => naturalPath(row.hierarchicalKey) === wanted) ??
    rows.find((row) => row.naturalKey === wanted)
  );
}

/** Whether a row's key is the scope key or lies under it. */
export function isWithinScope(hierarchicalKey: string, scope: string): boolean {
  return hierarchicalKey === scope || hierarchicalKey.startsWith(`${scope}.`);
}
