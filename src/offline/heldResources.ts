/** `kind:application/…` → its kind and application (the resources of the outbox's changes are named so). */
function partsOf(resource: string): { kind: string; application: string } | undefined {
  const match = /^([A-Za-z]+):([^/]+)/.exec(resource);
  return match ? { kind: match[1]!, application: match[2]! } : undefined;
}

/** Changes others of their application build on: its configuration, its references. */
const LEADING = new Set(['application', 'reference']);
/** Changes that build on them: rows of references and data types, deposits, additional files (their fields). */
const DEPENDENT = new Set(['reference', 'dataType', 'dataset', 'additionalFile']);

/**
 * The resources whose changes wait during a pass of the outbox. Changes keep their order within a resource; and the
 * data of an application wait behind a change of its configuration or of one of its references that waits (refused,
 * or backing off): a deposit sent before the configuration it was made for would be refused, or stored under the
 * old one. Rights, charters and other applications' changes go on.
 */
export class HeldResources {
  private readonly resources = new Set<string>();
  private readonly applications = new Set<string>();

  hold(resource: string) {
    this.resources.add(resource);
    const parts = partsOf(resource);
    if (parts && LEADING.has(parts.kind)) this.applications.add(parts.application);
  }

  holds(resource: string): boolean {
    if (this.resources.has(resource)) return true;
    const parts = partsOf(resource);
    return parts !== undefined && DEPENDENT.has(parts.kind) && this.applications.has(parts.application);
  }
}

/**
 * For each waiting change that a refused one before it holds back (of its resource, or its application's
 * configuration or references) of the same person, the first such: the pending changes page says what it waits for.
 */
export function refusedBlockers<T extends { id?: number; status: string; resource: string; owner?: string }>(
  items: readonly T[],
): Map<number, T> {
  const blockers = new Map<number, T>();
  const refused: Array<{ item: T; held: HeldResources }> = [];
  for (const item of [...items].sort((a, b) => (a.id ?? 0) - (b.id ?? 0))) {
    if (item.status === 'needs-attention') {
      const held = new HeldResources();
      held.hold(item.resource);
      refused.push({ item, held });
    } else if (item.status === 'queued') {
      // Another person's changes are passed over, holding nothing back (outbox.ts).
      const blocker = refused.find(
        ({ item: before, held }) =>
          (before.owner === undefined || before.owner === item.owner) && held.holds(item.resource),
      );
      if (blocker && item.id !== undefined) blockers.set(item.id, blocker.item);
    }
  }
  return blockers;
}
