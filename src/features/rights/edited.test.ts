import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '@/domain/configuration';
import { PUBLIC_USER } from '@/domain/rights/authorization';
import { requestFromState, toggleEntry, toggleNode } from '@/domain/rights/rightsTable';
import { authorizationInputOf, isPublicRequest, rightsRequestInputOf } from './edited';

const fixture = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations/surveys.yaml'));
const result = validateConfiguration(fixture, 'surveys.yaml');
if (!result.ok) throw new Error('fixture');
const model = result.value;
const counts = model.data.find((d) => d.name === 'counts')!;
const sites = model.data.find((d) => d.name === 'sites')!;
const tree = [{ id: 'alps', children: [{ id: 'alps.lac_blanc', children: [] }] }];

describe('a refused change reopened in its form', () => {
  it('gives back the authorization as it was filled: name, comment, users, rights and period', () => {
    let state = toggleEntry({}, sites, 'extraction', true);
    state = toggleNode(state, counts, 'project', tree, 'alps', 'extraction', true);
    const rules = requestFromState(model, state, { from: '2024-06-01', to: '2024-06-10' }, false);
    const input = authorizationInputOf(model, {
      uuid: null,
      name: 'Lac Blanc',
      description: 'Début juin',
      usersId: ['u1', 'u2'],
      ...rules,
    });
    expect(input).toMatchObject({ name: 'Lac Blanc', description: 'Début juin', users: ['u1', 'u2'] });
    expect(input.period).toEqual({ kind: 'between', from: '01-06-2024', to: '10-06-2024' });
    expect(input.rights).toEqual(state);
  });

  it('leaves out rights on data the application no longer has', () => {
    const state = toggleEntry({}, sites, 'extraction', true);
    const rules = requestFromState(model, state, { from: null, to: null }, false);
    const input = authorizationInputOf(model, {
      name: 'n',
      usersId: ['u1'],
      authorizationForAll: { ...rules.authorizationForAll, gone: ['extraction'] },
      authorizationsWithRestriction: { gone: [{ operationTypes: ['extraction'], fromDay: '2024-01-01' }] },
    });
    expect(input.rights).toEqual(state);
    expect(input.period.kind).toBe('always');
  });

  it('tells a public authorization by its public user, which is no person of the form', () => {
    const request = { name: 'Tous', usersId: [PUBLIC_USER], authorizationForAll: { sites: ['extraction'] } };
    expect(isPublicRequest(request)).toBe(true);
    expect(authorizationInputOf(model, request).users).toEqual([]);
    expect(isPublicRequest({ usersId: ['u1'] })).toBe(false);
  });

  it('gives back a rights request: its fields as text, its comment and the rights asked for', () => {
    const input = rightsRequestInputOf(model, {
      id: null,
      fields: { institute: 'cnrs', year: 2024, until: null },
      rightsRequest: { authorizationForAll: { sites: ['extraction'] } },
      comment: 'Pour ma thèse',
    });
    expect(input.fields).toEqual({ institute: 'cnrs', year: '2024' });
    expect(input.comment).toBe('Pour ma thèse');
    expect(input.rights).toEqual(toggleEntry({}, sites, 'extraction', true));
  });
});
