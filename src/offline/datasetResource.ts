/**
 * The outbox resource of a dataset: its changes (deposits, publications, deletions) are sent in the order they were
 * made. Its scope's components are sorted, since a version's scope comes back from the server in another order than
 * the deposit form's.
 */
export const datasetResource = (application: string, dataType: string, scope: Record<string, string>) =>
  `dataset:${application}/${dataType}/${JSON.stringify(sortedScope(scope))}`;

const sortedScope = (scope: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(scope).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * A dataset's resource as it is written now, from one written before its scope was sorted (changes queued before
 * the update); any other resource as it is.
 */
export function sortedDatasetResource(resource: string): string {
  const parts = /^(dataset:[^{]*\/)(\{.*\})$/s.exec(resource);
  if (!parts) return resource;
  try {
    const scope: unknown = JSON.parse(parts[2]);
    if (typeof scope !== 'object' || scope === null || Array.isArray(scope)) return resource;
    return `${parts[1]}${JSON.stringify(sortedScope(scope as Record<string, unknown>))}`;
  } catch {
    return resource;
  }
}
