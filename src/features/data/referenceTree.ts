import type { ApplicationModel, DataEntry } from '@/domain/configuration/model';

export interface TreeNode {
  entry: DataEntry;
  children: TreeNode[];
}

/**
 * The references as a forest: a reference whose rows hang under another's (OA_isParent) is its child. Nodes are
 * ordered by their order tag, then by name; a reference with several parents appears under each.
 */
export function referenceTree(model: ApplicationModel, kind: DataEntry['kind'] = 'reference'): TreeNode[] {
  const entries = model.data.filter((entry) => entry.kind === kind);
  const names = new Set(entries.map((e) => e.name));
  const byOrder = (a: DataEntry, b: DataEntry) => a.tags.order - b.tags.order || a.name.localeCompare(b.name);
  const childrenOf = (parent: string, path: Set<string>): TreeNode[] =>
    entries
      .filter((entry) => entry.hierarchy.parents.some((p) => p.reference === parent) && entry.name !== parent && !path.has(entry.name))
      .sort(byOrder)
      .map((entry) => ({ entry, children: childrenOf(entry.name, new Set([...path, entry.name])) }));
  return entries
    .filter((entry) => !entry.hierarchy.parents.some((p) => p.reference !== entry.name && names.has(p.reference)))
    .sort(byOrder)
    .map((entry) => ({ entry, children: childrenOf(entry.name, new Set([entry.name])) }));
}

/** Keeps the nodes carrying every chosen tag, and the ancestors that lead to them. */
export function filterTree(nodes: TreeNode[], tags: ReadonlySet<string>): TreeNode[] {
  if (tags.size === 0) return nodes;
  return nodes.flatMap((node) => {
    const children = filterTree(node.children, tags);
    const matches = [...tags].every((tag) => node.entry.tags.domain.includes(tag));
    return matches || children.length > 0 ? [{ entry: node.entry, children }] : [];
  });
}

/** The domain tags used by entries of a kind, in declaration order. */
export function tagsInUse(model: ApplicationModel, kind: DataEntry['kind'] = 'reference'): string[] {
  const used = new Set(model.data.filter((e) => e.kind === kind).flatMap((e) => e.tags.domain));
  return model.domainTags.map((t) => t.name).filter((name) => used.has(name));
}
