import type { DomainError } from '../errors';
import type { BreakingChangeCode, ImpactItem, StoredRowCounts, UpdateImpact } from './updateImpact';

export type { BreakingChangeCode, StoredRowCounts };

/** A forbidden or data-losing change as the error an update is refused with, in the params its message names. */
function problemOf(dataName: string, item: ImpactItem): DomainError<BreakingChangeCode> {
  const path = `OA_data > ${dataName}`;
  const code = item.code!;
  switch (item.change) {
    case 'kindChanged':
      return { code, path, params: { dataName, rows: item.rows, before: item.before![0], after: item.after![0] } };
    case 'naturalKeyChanged':
      return { code, path, params: { dataName, before: item.before, after: item.after, rows: item.rows } };
    case 'scopeRemoved':
      return { code, path: `${path} > OA_authorizations`, params: { dataName, component: item.component } };
    case 'timeScopeChanged':
      return { code, path, params: { dataName, rows: item.rows } };
    case 'componentRemoved':
      return { code, path, params: { dataName, component: item.component, rows: item.rows } };
    default:
      return { code, path, params: { dataName, rows: item.rows } };
  }
}

/** The changes of an impact with the given severities, as errors. */
export function problemsOf(
  impact: UpdateImpact,
  severities: ReadonlyArray<ImpactItem['severity']>,
): DomainError<BreakingChangeCode>[] {
  return impact.entries.flatMap((entry) =>
    entry.items
      .filter((item) => item.code && severities.includes(item.severity))
      .map((item) => problemOf(entry.dataName, { ...item, rows: item.rows ?? entry.rows })),
  );
}
