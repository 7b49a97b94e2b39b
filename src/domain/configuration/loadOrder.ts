/** The dependency graph of data entries: who needs whom loaded first (§9.4). */
export interface DependencyNode {
  name: string;
  dependsOn: readonly string[];
}

export interface LoadOrder {
  /** Every entry, each after its dependencies; ties keep configuration order. */
  order: string[];
  /** Entries that depend on each other in a loop (each loop once, as a path back to its start). */
  cycles: string[][];
}

/**
 * Each entry after the entries it needs, the first ready in configuration order going first. In time linear in the
 * entries and their dependencies (a heap of the ready ones by position): a configuration of thousands of entries
 * is read on the request thread, and walking them again after each one placed froze the server for seconds.
 */
export function computeLoadOrder(nodes: readonly DependencyNode[]): LoadOrder {
  const position = new Map(nodes.map((node, index) => [node.name, index]));
  const needs = nodes.map((node) => new Set(node.dependsOn.filter((name) => position.has(name) && name !== node.name)));
  const neededBy: number[][] = nodes.map(() => []);
  const waitingFor = needs.map((names) => names.size);
  needs.forEach((names, index) => names.forEach((name) => neededBy[position.get(name)!]!.push(index)));
  const ready = new MinHeap();
  waitingFor.forEach((count, index) => {
    if (count === 0) ready.push(index);
  });
  const placed = new Array<boolean>(nodes.length).fill(false);
  const order: string[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    placed[next] = true;
    order.push(nodes[next]!.name);
    for (const dependent of neededBy[next]!) if (--waitingFor[dependent]! === 0) ready.push(dependent);
  }
  const pending = new Map<string, ReadonlySet<string>>();
  nodes.forEach((node, index) => {
    if (!placed[index]) pending.set(node.name, needs[index]!);
  });
  const cycles = findCycles(pending);
  // Entries caught in a loop still get a place, in configuration order, so that the model stays complete.
  for (const name of pending.keys()) order.push(name);
  return { order, cycles };
}

/**
 * The loops among entries never placed: from each, its first dependency still pending is followed until the walk
 * comes back to itself (a loop found) or reaches a walk already made (nothing new). Each entry is walked once.
 */
function findCycles(pending: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const walked = new Set<string>();
  const nextOf = (name: string) => [...(pending.get(name) ?? [])].find((dependency) => pending.has(dependency));
  for (const start of pending.keys()) {
    if (walked.has(start)) continue;
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let current: string | undefined = start;
    while (current !== undefined && !walked.has(current) && !onPath.has(current)) {
      onPath.set(current, path.length);
      path.push(current);
      current = nextOf(current);
    }
    if (current !== undefined && onPath.has(current)) cycles.push([...path.slice(onPath.get(current)), current]);
    for (const name of path) walked.add(name);
  }
  return cycles;
}

/** The smallest of the positions pushed first: the ready entry first in configuration order. */
class MinHeap {
  private readonly items: number[] = [];

  push(item: number): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0;) {
      const parent = (at - 1) >> 1;
      if (items[parent]! <= item) break;
      items[at] = items[parent]!;
      items[parent] = item;
      at = parent;
    }
  }

  pop(): number | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    for (let at = 0; ;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let smallest = at;
      if (left < items.length && items[left]! < items[smallest]!) smallest = left;
      if (right < items.length && items[right]! < items[smallest]!) smallest = right;
      if (smallest === at) break;
      [items[at], items[smallest]] = [items[smallest]!, items[at]!];
      at = smallest;
    }
    return top;
  }
}
