import type { DataEntry } from '../configuration/model';
import type { RowQuery } from '../rows/rowQuery';
import { isWithinScope, type ScopeRow } from './scopeValues';

/** The dataset of a version: reference-scope component → hierarchical key, and its period (ISO local date-times). */
export interface VersionDataset {
  scope: Record<string, string>;
  from: string | null;
  to: string | null;
}

/**
 * The published rows of a version's dataset, as a query of the data exports (which keep to the rows the caller may
 * read): for someone whose rights reach only part of a version, the file is refused and this is what they get.
 * Each scope component is filtered on the natural keys of the version's row and of every row under it (a row of a
 * deposit lies at or under its dataset's node), the time scope on the version's period. Published versions of one
 * scope never overlap in time, so for a published version these are its own rows. Null when a scope row is not
 * among `scopeRows`.
 */
export function versionRowsQuery(
  entry: DataEntry,
  version: VersionDataset,
  scopeRows: (reference: string) => readonly ScopeRow[],
): RowQuery | null {
  const componentFilters: NonNullable<RowQuery['componentFilters']> = [];
  for (const reference of entry.submission.referenceScopes) {
    const node = version.scope[reference.component];
    const filters = scopeRows(reference.reference)
      .filter((row) => node !== undefined && isWithinScope(row.hierarchicalKey, node))
      .map((row) => row.naturalKey);
    // Without the dataset's row (references not on the device), the query would ask for more than the version.
    if (filters.length === 0) return null;
    componentFilters.push({ componentKey: reference.component, filters });
  }
  const timeScope = entry.submission.timeScope;
  if (timeScope && version.from && version.to)
    componentFilters.push({
      componentKey: timeScope.component,
      intervalValues: periodInterval(version.from, version.to),
    });
  return { componentFilters };
}

/**
 * A version of one instant (a daily file starts and ends at midnight) is asked for its whole day: equal ends would
 * name that midnight alone (src/domain/rows/intervals.ts), and the filter form applies only from < to.
 */
function periodInterval(from: string, to: string): { from: string; to: string } {
  if (from < to) return { from, to };
  const day = from.slice(0, 10);
  return { from: day, to: `${day}T23:59:59` };
}
