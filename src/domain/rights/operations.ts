import type { EntryOutline } from '../applications/outline';

/**
 * What a right allows on a data entry: deposit (load) files, publish versions, delete, read and export
 * (extraction), and grant one's own rights to others (admin).
 */
export const OPERATIONS = ['depot', 'publication', 'delete', 'extraction', 'admin'] as const;
export type Operation = (typeof OPERATIONS)[number];

export const isOperation = (value: unknown): value is Operation =>
  typeof value === 'string' && (OPERATIONS as readonly string[]).includes(value);

/** Data whose rows carry an authorization scope: rights may be restricted to parts of it, and published. */
export const isScoped = (entry: EntryOutline) => entry.authorization !== null && entry.authorization.scopes.length > 0;

/** Publication exists only where versions are published, on data with an authorization scope. */
export const canPublish = (entry: EntryOutline) => isScoped(entry) && entry.submission.strategy === 'OA_VERSIONING';

/**
 * The operations a chosen one brings with it: reading comes with any write; on scoped data, deleting and
 * publishing come together with depositing (a published version can be replaced or removed).
 */
export function withDependencies(operations: Iterable<Operation>, entry: EntryOutline): Set<Operation> {
  const result = new Set(operations);
  const publishable = canPublish(entry);
  if (result.has('publication') && !publishable) result.delete('publication');
  if (publishable && (result.has('publication') || result.has('delete'))) {
    result.add('depot').add('publication').add('delete');
  }
  if (!publishable && result.has('delete')) result.add('depot');
  if (result.has('depot') || result.has('delete') || result.has('publication')) result.add('extraction');
  return result;
}

/**
 * Operations that are there only because another chosen one brings them (they cannot be unchecked on their own).
 * Two operations that bring each other (publishing and deleting versions) are not induced by one another: each
 * stays free, and unchecking either takes the other along.
 */
export function inducedOperations(chosen: Iterable<Operation>, entry: EntryOutline): Set<Operation> {
  const explicit = [...new Set(chosen)];
  const brings = (operation: Operation, other: Operation) => withDependencies([operation], entry).has(other);
  return new Set(
    explicit.filter((operation) =>
      explicit.some((other) => other !== operation && brings(other, operation) && !brings(operation, other)),
    ),
  );
}

/** Public authorizations only ever let people read. */
export const PUBLIC_OPERATIONS: ReadonlySet<Operation> = new Set(['extraction']);

export interface OperationColumn {
  operation: Operation;
  /** Whether a right of this kind may be limited to a period. */
  withPeriods: boolean;
  forPublic: boolean;
  forRequest: boolean;
}

/** The columns of the rights table for an entry, in display order. */
export function operationColumns(entry: EntryOutline): OperationColumn[] {
  return OPERATIONS.filter((operation) => operation !== 'publication' || canPublish(entry)).map((operation) => ({
    operation,
    withPeriods: operation === 'extraction' && entry.authorization?.timeScope != null,
    forPublic: operation === 'extraction',
    forRequest: operation === 'extraction',
  }));
}
