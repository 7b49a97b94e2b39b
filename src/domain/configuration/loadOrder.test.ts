import { describe, expect, it } from 'vitest';
import { computeLoadOrder, type DependencyNode, type LoadOrder } from './loadOrder';

/** The first ordering written, quadratic and plain: what the linear one must answer, on small graphs. */
function plainLoadOrder(nodes: readonly DependencyNode[]): LoadOrder {
  const known = new Set(nodes.map((node) => node.name));
  const pending = new Map(
    nodes.map((node) => [node.name, new Set(node.dependsOn.filter((name) => known.has(name) && name !== node.name))]),
  );
  const order: string[] = [];
  for (let progressed = true; progressed;) {
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
  for (const node of nodes) if (pending.has(node.name)) order.push(node.name);
  return { order, cycles };
}

/** A seeded graph of `size` entries, each needing a few others (unknown names and itself included, sometimes). */
function randomGraph(size: number, seed: number): DependencyNode[] {
  let state = seed;
  const next = (bound: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % bound;
  };
  return Array.from({ length: size }, (_, index) => ({
    name: `e${index}`,
    dependsOn: Array.from({ length: next(4) }, () => (next(10) === 0 ? 'unknown' : `e${next(size)}`)),
  }));
}

describe('the load order', () => {
  it('places each entry after those it needs, the first ready in configuration order first, and names loops', () => {
    expect(
      computeLoadOrder([
        { name: 'counts', dependsOn: ['sites', 'species'] },
        { name: 'sites', dependsOn: ['regions'] },
        { name: 'species', dependsOn: [] },
        { name: 'regions', dependsOn: ['regions', 'nowhere'] },
        { name: 'a', dependsOn: ['b'] },
        { name: 'b', dependsOn: ['a'] },
      ]),
    ).toEqual({ order: ['species', 'regions', 'sites', 'counts', 'a', 'b'], cycles: [['a', 'b', 'a']] });
  });

  it('answers as the plain ordering did, on a thousand random graphs', () => {
    for (let seed = 1; seed <= 1_000; seed++) {
      const graph = randomGraph(1 + (seed % 40), seed);
      expect(computeLoadOrder(graph), `seed ${seed}`).toEqual(plainLoadOrder(graph));
    }
  });

  it('orders a chain of 50,000 entries ending in a loop in time that grows with them, not with their square', () => {
    const size = 50_000;
    const chain = Array.from({ length: size }, (_, index) => ({
      name: `e${index}`,
      dependsOn: index === size - 1 ? [`e${index - 1}`] : [`e${index + 1}`],
    }));
    const { order, cycles } = computeLoadOrder(chain);
    expect(order).toHaveLength(size);
    expect(cycles).toEqual([[`e${size - 2}`, `e${size - 1}`, `e${size - 2}`]]);
    const independent = computeLoadOrder(
      Array.from({ length: size }, (_, index) => ({ name: `e${index}`, dependsOn: [`e${index - 1}`] })),
    );
    expect(independent.order.slice(0, 3)).toEqual(['e0', 'e1', 'e2']);
  });
});
