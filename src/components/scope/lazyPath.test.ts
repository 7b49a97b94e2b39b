import { describe, expect, it, vi } from 'vitest';
import type { ScopeNodesPage } from '@/contract/authorizations';
import type { EntryOutline } from '@/domain/applications/outline';
import { nodeCheck, toggleNode, type RightsTableState } from '@/domain/rights/rightsTable';

/** Zones: two regions of 250 sectors, the second region's sector 7 holding 3 plots. Pages of 100, as the server's. */
const children = (parent: string): string[] =>
  parent === 'zonesKr2'
    ? Array.from({ length: 250 }, (_, i) => `zonesKr2.zonesKr2_${i + 1}`)
    : parent === 'zonesKr2.zonesKr2_7'
      ? [1, 2, 3].map((p) => `zonesKr2.zonesKr2_7.zonesKp${p}`)
      : [];
const reads: string[] = [];

vi.mock('@/offline/scopeNodesRead', () => ({
  scopeNodesRead: (_app: string, _ref: string, _use: string, asked: { parent: string; after?: string }) => ({
    queryKey: ['scopeNodes', asked],
    read: (): Promise<ScopeNodesPage> => {
      reads.push(`${asked.parent} after ${asked.after ?? '-'}`);
      const all = children(asked.parent);
      const from = asked.after === undefined ? 0 : all.indexOf(asked.after) + 1;
      const nodes = all
        .slice(from, from + 100)
        .map((id) => ({ id, naturalKey: id, label: id, children: [], childCount: 0 }));
      return Promise.resolve({ nodes, total: asked.after === undefined ? all.length : undefined, more: false });
    },
  }),
}));
vi.mock('@/offline/queryCache', () => ({
  keptRead: async (_key: unknown, read: () => Promise<unknown>) => ({ value: await read() }),
}));

const { partBetween, parentInTree, levelSize } = await import('./lazyPath');
const source = { application: 'trees', reference: 'zones', use: 'grant' as const };

describe('partBetween', () => {
  it('reads every page of each level between a checked node and one under it', async () => {
    reads.length = 0;
    const part = await partBetween(source, 'zonesKr2', 'zonesKr2.zonesKr2_7.zonesKp2');
    expect(reads).toEqual([
      'zonesKr2 after -',
      'zonesKr2 after zonesKr2.zonesKr2_100',
      'zonesKr2 after zonesKr2.zonesKr2_200',
      'zonesKr2.zonesKr2_7 after -',
    ]);
    expect(part).toHaveLength(1);
    expect(part[0].id).toBe('zonesKr2');
    expect(part[0].children).toHaveLength(250);
    const seventh = part[0].children.find((n) => n.id === 'zonesKr2.zonesKr2_7')!;
    expect(seventh.children.map((n) => n.id)).toEqual(children('zonesKr2.zonesKr2_7'));
  });

  it('gives toggleNode what a small tree gives it: the siblings along the way keep the right', async () => {
    const entry = { name: 'surveys', dependencies: {} } as unknown as EntryOutline;
    const state: RightsTableState = { surveys: { all: [], nodes: { zone: { extraction: ['zonesKr2'] } } } };
    const node = 'zonesKr2.zonesKr2_7.zonesKp2';
    const tree = await partBetween(source, 'zonesKr2', node);
    const next = toggleNode(state, entry, 'zone', tree, node, 'extraction', false);
    const keys = next.surveys.nodes.zone.extraction!;
    expect(keys).toHaveLength(249 + 2);
    expect(keys).toContain('zonesKr2.zonesKr2_7.zonesKp1');
    expect(keys).not.toContain('zonesKr2');
    expect(nodeCheck(next, 'surveys', 'zone', 'extraction', node)).toBe(0);
    expect(nodeCheck(next, 'surveys', 'zone', 'extraction', 'zonesKr2')).toBe(-1);
  });

  it('names the parent of a key within the tree only', async () => {
    expect(parentInTree('zones', 'zonesKr2.zonesKr2_7')).toBe('zonesKr2');
    expect(parentInTree('zones', 'zonesKr2')).toBeUndefined();
    expect(parentInTree('sites', 'projectsKalps.sitesKs1')).toBeUndefined();
    expect(await levelSize(source, 'zonesKr2')).toBe(250);
  });
});
