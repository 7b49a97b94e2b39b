import { SCOPE_TREE_WHOLE_MAX, type ScopeNode } from '@/contract/authorizations';
import { keptRead } from '@/offline/queryCache';
import { scopeNodesRead } from '@/offline/scopeNodesRead';
import type { LazyTreeSource } from './lazyScopeTree';

/** A level too large to be read whole on the device, to give each of its nodes a right. */
export class LevelTooLarge extends Error {
  constructor(readonly total: number) {
    super(`a level of ${total} nodes`);
  }
}

/**
 * How many nodes a level of a large tree holds (its first page's count, from the read cache when read before); not
 * known, more than any: a part above is never given a right its children do not all hold.
 */
export async function levelSize(source: LazyTreeSource, parent: string): Promise<number> {
  const read = scopeNodesRead(source.application, source.reference, source.use, { parent });
  return (await keptRead(read.queryKey, () => read.read())).value.total ?? Infinity;
}

/** The node a key lies directly under in a tree of `reference`, when that is one of the reference's own rows. */
export function parentInTree(reference: string, key: string): string | undefined {
  const labels = key.split('.');
  return labels.length > 1 && labels[labels.length - 2].startsWith(`${reference}K`)
    ? labels.slice(0, -1).join('.')
    : undefined;
}

/**
 * Every node of one level of a large tree, read a page at a time through the one read cache (so pages read
 * before answer offline). A level past SCOPE_TREE_WHOLE_MAX nodes is refused, as such a tree is not sent whole.
 */
async function wholeLevel(source: LazyTreeSource, parent: string): Promise<ScopeNode[]> {
  const nodes: ScopeNode[] = [];
  let after: string | undefined;
  // The level's size comes with its first page.
  let total = 0;
  for (;;) {
    const read = scopeNodesRead(source.application, source.reference, source.use, { parent, after });
    const page = (await keptRead(read.queryKey, () => read.read())).value;
    if (after === undefined) total = page.total ?? 0;
    if (total > SCOPE_TREE_WHOLE_MAX) throw new LevelTooLarge(total);
    nodes.push(...page.nodes.map((node) => ({ ...node, children: [] })));
    if (page.nodes.length === 0 || nodes.length >= total) return nodes;
    after = page.nodes[page.nodes.length - 1].id;
  }
}

/**
 * The part of a large tree from a checked node `holder` down to a node under it, with the children of every node
 * on the way, whole: what unchecking that node needs to give the right to the siblings along the way instead
 * of the holder, as a small tree does with the tree it holds (`toggleNode`). Other nodes have no children here.
 */
export async function partBetween(source: LazyTreeSource, holder: string, node: string): Promise<ScopeNode[]> {
  const labels = node.split('.');
  const first = holder.split('.').length;
  // The holder, then each node below it down to the node's parent.
  const way = Array.from({ length: labels.length - first }, (_, i) => labels.slice(0, first + i).join('.'));
  const levels: ScopeNode[][] = [];
  for (const key of way) levels.push(await wholeLevel(source, key));
  let below: ScopeNode[] = levels[levels.length - 1] ?? [];
  for (let i = way.length - 2; i >= 0; i--) {
    const next = way[i + 1];
    const under = below;
    below = levels[i].map((child) => (child.id === next ? { ...child, children: under } : child));
  }
  return [{ id: holder, naturalKey: '', label: '', children: below }];
}
