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

export function computeLoadOrder(nodes: readonly DependencyNode[]): LoadOrder {
  const known = new Set(nodes.map((node) => node.name));
  const pending = new Map(
    nodes.map((node) => [node.name, new Set(node.dependsOn.filter((name) => known.has(name) && name !== node.name))]),
  );
  const order: string[] = [];
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const node of nodes) {
      const waiting = pending.get(node.name);
      if (!waiting || [...waiting].some((name) => pending.has(name))) continue;
      pending.delete(node.name);
      order.push(node.name);
      progressed = true;
      break;
    }
  }
  const cycles = findCycles(pending);
  // Entries caught in a loop still get a place, in configuration order, so that the model stays complete.
  for (const node of nodes) if (pending.has(node.name)) order.push(node.name);
  return { order, cycles };
}

function findCycles(pending: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const covered = new Set<string>();
  for (const start of pending.keys()) {
    if (covered.has(start)) continue;
    const path: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && !path.includes(current)) {
      path.push(current);
      current = [...(pending.get(current) ?? [])].find((name) => pending.has(name));
    }
    if (current === undefined) continue;
    const cycle = [...path.slice(path.indexOf(current)), current];
    if (cycle.some((name) => covered.has(name))) continue;
    cycle.forEach((name) => covered.add(name));
    cycles.push(cycle);
  }
  return cycles;
}
