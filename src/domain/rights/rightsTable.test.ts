import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import { normalizeAuthorization } from './authorization';
import { Rights } from './access';
import {
  entryCheck,
  grantableOnEntry,
  grantableOnNode,
  lockedOperations,
  nodeCheck,
  requestFromState,
  stateFromRules,
  toggleEntry,
  toggleNode,
  type RightsTableState,
  type ScopeTreeNode,
} from './rightsTable';

const fixture = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations/surveys.yaml'));
const result = validateConfiguration(fixture, 'surveys.yaml');
if (!result.ok) throw new Error('fixture');
const model = result.value;
const counts = model.data.find((d) => d.name === 'counts')!;
const sites = model.data.find((d) => d.name === 'sites')!;

// A project tree: alps with two sub-projects, and pyrenees.
const tree: ScopeTreeNode[] = [
  {
    id: 'pKalps',
    children: [
      { id: 'pKalps.pKnorth', children: [] },
      { id: 'pKalps.pKsouth', children: [] },
    ],
  },
  { id: 'pKpyrenees', children: [] },
];

describe('the rights table', () => {
  it('checks an operation with its dependencies', () => {
    const state = toggleEntry({}, sites, 'delete', true);
    expect(state.sites.all.sort()).toEqual(['delete', 'depot', 'extraction']);
    expect(entryCheck(state, 'sites', 'extraction')).toBe(1);
    // What delete brought cannot be unchecked on its own.
    expect([...lockedOperations(sites, state.sites.all)].sort()).toEqual(['depot', 'extraction']);
  });

  it('leaves publishing and deleting versions free, as they bring each other, and unchecks them together', () => {
    let state = toggleEntry({}, counts, 'delete', true);
    expect(state.counts.all.sort()).toEqual(['delete', 'depot', 'extraction', 'publication']);
    expect([...lockedOperations(counts, state.counts.all)].sort()).toEqual(['depot', 'extraction']);
    state = toggleEntry(state, counts, 'delete', false);
    expect(state.counts.all.sort()).toEqual(['depot', 'extraction']);
    expect([...lockedOperations(counts, state.counts.all)]).toEqual(['extraction']);
  });

  it('unchecks the operations that depend on the one removed', () => {
    let state = toggleEntry({}, counts, 'publication', true);
    expect(state.counts.all.sort()).toEqual(['delete', 'depot', 'extraction', 'publication']);
    state = toggleEntry(state, counts, 'depot', false);
    expect(state.counts.all).toEqual(['extraction']);
  });

  it('shows parents partly checked and children checked through their parent', () => {
    let state: RightsTableState = toggleNode({}, counts, 'project', tree, 'pKalps.pKnorth', 'extraction', true);
    expect(nodeCheck(state, 'counts', 'project', 'extraction', 'pKalps')).toBe(-1);
    expect(nodeCheck(state, 'counts', 'project', 'extraction', 'pKalps.pKnorth')).toBe(1);
    expect(entryCheck(state, 'counts', 'extraction')).toBe(-1);
    state = toggleNode(state, counts, 'project', tree, 'pKalps.pKsouth', 'extraction', true);
    // Every child checked: the parent is checked instead.
    expect(state.counts.nodes.project.extraction).toEqual(['pKalps']);
  });

  it('gives way to the siblings when a node under a checked parent is unchecked', () => {
    let state = toggleNode({}, counts, 'project', tree, 'pKalps', 'extraction', true);
    state = toggleNode(state, counts, 'project', tree, 'pKalps.pKnorth', 'extraction', false);
    expect(state.counts.nodes.project.extraction).toEqual(['pKalps.pKsouth']);
  });

  it('turns into the request the server saves, and back', () => {
    let state = toggleEntry({}, sites, 'extraction', true);
    state = toggleNode(state, counts, 'project', tree, 'pKalps', 'depot', true);
    const request = requestFromState(model, state, { from: '2024-01-01', to: null }, false);
    expect(request).toEqual({
      authorizationForAll: { sites: ['extraction'] },
      authorizationsWithRestriction: {
        counts: [
          {
            operationTypes: ['depot', 'extraction'],
            requiredAuthorizations: { project: ['pKalps'] },
            timeScope: { fromDay: '2024-01-01', toDay: null },
          },
        ],
      },
    });
    const saved = normalizeAuthorization(model, { name: 'x', ...request }, false);
    if (!saved.ok) throw new Error(JSON.stringify(saved.problems));
    expect(stateFromRules(model, saved.rules).counts.nodes.project).toEqual({
      depot: ['pKalps'],
      extraction: ['pKalps'],
    });
  });

  it('keeps public authorizations to reading', () => {
    const state = toggleEntry({}, sites, 'depot', true);
    expect(requestFromState(model, state, { from: null, to: null }, true).authorizationForAll).toEqual({
      sites: ['extraction'],
    });
  });
});

describe('what a granter may give', () => {
  it('offers everything to managers', () => {
    const manager = new Rights(true, []);
    expect(grantableOnEntry(manager, 'counts', 'delete')).toBe(true);
    expect(grantableOnNode(manager, 'counts', 'delete', 'project', 'pKalps')).toBe(true);
  });

  it('offers only what the granter holds together with admin', () => {
    const granter = new Rights(false, [
      {
        forAll: { sites: ['extraction', 'admin'] },
        restricted: {
          counts: [{ operations: ['extraction', 'admin'], scopes: { project: ['pKalps'] }, from: null, to: null }],
        },
      },
      { forAll: { plots: ['depot'] }, restricted: {} },
    ]);
    expect(grantableOnEntry(granter, 'sites', 'extraction')).toBe(true);
    expect(grantableOnEntry(granter, 'sites', 'depot')).toBe(false);
    expect(grantableOnEntry(granter, 'plots', 'depot')).toBe(false);
    expect(grantableOnEntry(granter, 'counts', 'extraction')).toBe(false);
    expect(grantableOnNode(granter, 'counts', 'extraction', 'project', 'pKalps.pKnorth')).toBe(true);
    expect(grantableOnNode(granter, 'counts', 'extraction', 'project', 'pKpyrenees')).toBe(false);
    expect(grantableOnNode(granter, 'counts', 'depot', 'project', 'pKalps')).toBe(false);
    // A component the granter's right does not restrict is open to them.
    expect(grantableOnNode(granter, 'counts', 'extraction', 'site', 'anything')).toBe(true);
  });
});
