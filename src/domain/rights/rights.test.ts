import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import { Rights } from './access';
import { normalizeAuthorization, readDay, withRenamedScopeKeys } from './authorization';
import { inducedOperations, operationColumns, withDependencies } from './operations';
import { mayOpenVersion } from './versions';

const fixture = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations/surveys.yaml'));
const result = validateConfiguration(fixture, 'surveys.yaml');
if (!result.ok) throw new Error(JSON.stringify(result.errors));
const model = result.value;
const counts = model.data.find((d) => d.name === 'counts')!;
const sites = model.data.find((d) => d.name === 'sites')!;

describe('operations', () => {
  it('bring their dependencies', () => {
    expect([...withDependencies(['delete'], counts)].sort()).toEqual(['delete', 'depot', 'extraction', 'publication']);
    expect([...withDependencies(['publication'], counts)].sort()).toEqual([
      'delete',
      'depot',
      'extraction',
      'publication',
    ]);
    expect([...withDependencies(['depot'], counts)].sort()).toEqual(['depot', 'extraction']);
    expect([...withDependencies(['delete'], sites)].sort()).toEqual(['delete', 'depot', 'extraction']);
    expect([...withDependencies(['publication'], sites)]).toEqual([]);
  });

  it('know which ones were only induced', () => {
    expect([...inducedOperations(['depot', 'extraction'], counts)]).toEqual(['extraction']);
    expect([...inducedOperations(['extraction'], counts)]).toEqual([]);
    // Publishing and deleting versions bring each other: neither locks the other; depositing and reading stay locked.
    expect([...inducedOperations(['delete', 'depot', 'extraction', 'publication'], counts)].sort()).toEqual([
      'depot',
      'extraction',
    ]);
    expect([...inducedOperations(['delete', 'depot', 'extraction'], sites)].sort()).toEqual(['depot', 'extraction']);
  });

  it('show publication only where versions are published', () => {
    expect(operationColumns(counts).map((c) => c.operation)).toEqual([
      'depot',
      'publication',
      'delete',
      'extraction',
      'admin',
    ]);
    expect(operationColumns(sites).map((c) => c.operation)).toEqual(['depot', 'delete', 'extraction', 'admin']);
    expect(operationColumns(counts).find((c) => c.operation === 'extraction')).toMatchObject({
      withPeriods: true,
      forPublic: true,
    });
  });
});

describe('saving an authorization', () => {
  it('adds dependencies, keeps public ones to reading, and turns an unbounded restriction into a right on everything', () => {
    const saved = normalizeAuthorization(
      model,
      {
        name: ' Alps team ',
        description: 'null',
        authorizationForAll: { sites: ['depot'] },
        authorizationsWithRestriction: {
          counts: {
            operationTypes: ['extraction'],
            requiredAuthorizations: { project: ['projectsKalps'] },
            timeScope: { fromDay: '01/01/2024', toDay: '2024-12-31' },
          },
          species: {
            operationTypes: ['extraction'],
            timeScope: { fromDay: '-999999999-01-01', toDay: '+999999999-12-31' },
          },
        },
      },
      false,
    );
    expect(saved).toEqual({
      ok: true,
      name: 'Alps team',
      description: '',
      rules: {
        forAll: { sites: ['depot', 'extraction'], species: ['extraction'] },
        restricted: {
          counts: [
            {
              operations: ['extraction'],
              scopes: { project: ['projectsKalps'] },
              from: '2024-01-01',
              to: '2024-12-31',
            },
          ],
        },
      },
    });
    const publicOne = normalizeAuthorization(
      model,
      { name: 'open', authorizationForAll: { sites: ['depot', 'delete'] } },
      true,
    );
    expect(publicOne.ok && publicOne.rules.forAll).toEqual({ sites: ['extraction'] });
  });

  it('names what is wrong', () => {
    const refused = normalizeAuthorization(
      model,
      {
        name: '',
        authorizationForAll: { nothing: ['extraction'], sites: ['steal'] },
        authorizationsWithRestriction: { counts: { operationTypes: ['extraction'], fromDay: '31/02/2024' } },
      },
      false,
    );
    expect(refused.ok ? [] : refused.problems.map((p) => p.code)).toEqual([
      'NO_AUTHORIZATION_NAME',
      'UNKNOWN_DATA',
      'UNKNOWN_OPERATION',
      'BAD_PERIOD',
    ]);
  });

  it('refuses one that grants nothing, however it is written', () => {
    const codes = (request: Parameters<typeof normalizeAuthorization>[1], isPublic = false) => {
      const saved = normalizeAuthorization(model, { name: 'empty', ...request }, isPublic);
      return saved.ok ? [] : saved.problems.map((p) => p.code);
    };
    expect(codes({})).toEqual(['NOTHING_GRANTED']);
    expect(
      codes({
        authorizationForAll: { sites: [] },
        authorizationsWithRestriction: {
          counts: { operationTypes: [], requiredAuthorizations: { project: ['projectsKalps'] } },
        },
      }),
    ).toEqual(['NOTHING_GRANTED']);
    // Everyone only ever reads: a public authorization giving only the right to grant gives nothing.
    expect(codes({ authorizationForAll: { sites: ['admin'] } }, true)).toEqual(['NOTHING_GRANTED']);
    expect(codes({ authorizationForAll: { sites: ['admin'] } })).toEqual([]);
    // Other problems are named first; nothing granted is said only of rights that are otherwise right.
    expect(codes({ name: '', authorizationForAll: { nothing: ['extraction'] } })).toEqual([
      'NO_AUTHORIZATION_NAME',
      'UNKNOWN_DATA',
    ]);
  });

  it('reads days written several ways', () => {
    expect(readDay('2024-06-01 10:00')).toEqual({ ok: true, day: '2024-06-01' });
    expect(readDay('01-06-2024')).toEqual({ ok: true, day: '2024-06-01' });
    expect(readDay('')).toEqual({ ok: true, day: null });
    expect(readDay('June')).toEqual({ ok: false });
  });

  it('reads days in the format given (timeScope.format), refusing what does not match it and patterns it cannot read', () => {
    expect(readDay('01/12/1984', 'MM/dd/yyyy')).toEqual({ ok: true, day: '1984-01-12' });
    expect(readDay('1984-12-01 10:30:00', 'yyyy-MM-dd HH:mm:ss')).toEqual({ ok: true, day: '1984-12-01' });
    expect(readDay('31/12/1984', 'MM/dd/yyyy')).toEqual({ ok: false });
    expect(readDay('02/30/1984', 'MM/dd/yyyy')).toEqual({ ok: false });
    expect(readDay('01/12/1984', 'not a pattern ]]')).toEqual({ ok: false });
    expect(readDay('', 'MM/dd/yyyy')).toEqual({ ok: true, day: null });
    expect(readDay('01/12/1984', null)).toEqual({ ok: true, day: '1984-12-01' });
  });

  it('refuses days that do not exist, in every century (years below 100 included)', () => {
    expect(readDay('31/02/2024')).toEqual({ ok: false });
    expect(readDay('2023-02-29')).toEqual({ ok: false });
    expect(readDay('2024-02-29')).toEqual({ ok: true, day: '2024-02-29' });
    expect(readDay('0100-02-29')).toEqual({ ok: false });
    expect(readDay('0000-02-29')).toEqual({ ok: true, day: '0000-02-29' });
    expect(readDay('2024-13-01')).toEqual({ ok: false });
  });
});

describe('rights on rows', () => {
  const rules = {
    forAll: { sites: ['extraction' as const] },
    restricted: {
      counts: [
        {
          operations: ['extraction' as const, 'depot' as const],
          scopes: { project: ['projectsKalps'] },
          from: '2024-01-01',
          to: '2024-06-30',
        },
      ],
    },
  };
  const rights = new Rights(false, [rules]);

  it('filter rows by scope sub-tree and period', () => {
    const place = (project: string, start: string, end: string) => ({
      scopes: { project, site: 'sitesKlac_blanc' },
      start,
      end,
    });
    expect(
      rights.allows('extraction', 'counts', place('projectsKalps', '2024-06-30T00:00:00', '2024-07-01T00:00:00')),
    ).toBe(true);
    expect(
      rights.allows('extraction', 'counts', place('projectsKalps.subKx', '2024-02-01T00:00:00', '2024-02-02T00:00:00')),
    ).toBe(true);
    expect(
      rights.allows('extraction', 'counts', place('projectsKalps', '2024-07-01T00:00:00', '2024-07-02T00:00:00')),
    ).toBe(false);
    expect(
      rights.allows('extraction', 'counts', place('projectsKpyrenees', '2024-02-01T00:00:00', '2024-02-02T00:00:00')),
    ).toBe(false);
    expect(
      rights.allows('delete', 'counts', place('projectsKalps', '2024-02-01T00:00:00', '2024-02-02T00:00:00')),
    ).toBe(false);
    expect(rights.all('extraction', 'sites')).toBe(true);
    expect(rights.any('extraction', 'species')).toBe(false);
  });

  it('keep an undated row of data with a time scope from a right held for a period, not from one without', () => {
    const undated = { scopes: { project: 'projectsKalps', site: 'sitesKlac_blanc' }, start: null, end: null };
    expect(rights.allows('extraction', 'counts', { ...undated, undated: true })).toBe(false);
    // Data without a time scope: its rows have no period, which a period held does not narrow.
    expect(rights.allows('extraction', 'counts', undated)).toBe(true);
    const whenever = new Rights(false, [
      {
        forAll: {},
        restricted: {
          counts: [{ operations: ['extraction'], scopes: { project: ['projectsKalps'] }, from: null, to: null }],
        },
      },
    ]);
    expect(whenever.allows('extraction', 'counts', { ...undated, undated: true })).toBe(true);
  });

  it('cover deposits inside the granted scope and period only', () => {
    expect(
      rights.covers('depot', 'counts', {
        scopes: { project: 'projectsKalps', site: 'sitesKlac_blanc' },
        from: '2024-02-01T00:00:00',
        to: '2024-02-28T00:00:00',
      }),
    ).toBe(true);
    expect(
      rights.covers('depot', 'counts', {
        scopes: { project: 'projectsKalps', site: 'sitesKlac_blanc' },
        from: '2024-06-01T00:00:00',
        to: '2024-07-31T00:00:00',
      }),
    ).toBe(false);
  });

  it('open a version only to whom its grant covers whole: published to readers, unpublished to depositors', () => {
    const reader = new Rights(false, [
      {
        forAll: {},
        restricted: {
          counts: [
            {
              operations: ['extraction'],
              scopes: { project: ['projectsKalps'] },
              from: '2024-06-01',
              to: '2024-06-30',
            },
          ],
        },
      },
    ]);
    const version = (from: string, to: string, published = true, project = 'projectsKalps') => ({
      scopes: { project, site: 'sitesKlac_blanc' },
      from: `${from}T00:00:00`,
      to: `${to}T00:00:00`,
      published,
    });
    expect(mayOpenVersion(reader, 'counts', version('2024-06-01', '2024-06-30'))).toBe(true);
    expect(mayOpenVersion(reader, 'counts', version('2024-06-10', '2024-06-20'))).toBe(true);
    // Part of it lies in June: the reader reads those rows through the exports, not the whole file.
    expect(mayOpenVersion(reader, 'counts', version('2024-05-16', '2024-06-15'))).toBe(false);
    expect(mayOpenVersion(reader, 'counts', version('2024-06-30', '2024-07-01'))).toBe(false);
    expect(mayOpenVersion(reader, 'counts', version('2024-06-01', '2024-06-30', true, 'projectsKpyrenees'))).toBe(
      false,
    );
    expect(mayOpenVersion(reader, 'counts', version('2024-06-01', '2024-06-30', false))).toBe(false);
    // Unpublished: whoever could have deposited it, with the same cover (rights holds depot on alps until June's end).
    expect(mayOpenVersion(rights, 'counts', version('2024-06-01', '2024-06-30', false))).toBe(true);
    expect(mayOpenVersion(rights, 'counts', version('2024-06-01', '2024-07-31', false))).toBe(false);
    expect(mayOpenVersion(new Rights(true, []), 'counts', version('2024-05-16', '2024-06-15', false))).toBe(true);
  });

  it('never let someone give more than they hold with admin', () => {
    const granter = new Rights(false, [
      {
        forAll: { sites: ['extraction', 'admin'] },
        restricted: {
          counts: [
            { operations: ['extraction', 'admin'], scopes: { project: ['projectsKalps'] }, from: null, to: null },
          ],
        },
      },
    ]);
    expect(granter.mayGrant({ forAll: { sites: ['extraction'] }, restricted: {} })).toBe(true);
    expect(granter.mayGrant({ forAll: { sites: ['depot', 'extraction'] }, restricted: {} })).toBe(false);
    expect(
      granter.mayGrant({
        forAll: {},
        restricted: {
          counts: [{ operations: ['extraction'], scopes: { project: ['projectsKalps.subKx'] }, from: null, to: null }],
        },
      }),
    ).toBe(true);
    expect(
      granter.mayGrant({
        forAll: {},
        restricted: {
          counts: [{ operations: ['extraction'], scopes: { project: ['projectsKpyrenees'] }, from: null, to: null }],
        },
      }),
    ).toBe(false);
    expect(new Rights(true, []).mayGrant({ forAll: { sites: ['admin'] }, restricted: {} })).toBe(true);
  });
});

describe('grants naming moved nodes', () => {
  it('name them by their new keys and keep the rest, or say none moved', () => {
    const renamed = new Map([['alps.aiguilles', 'vanoise.aiguilles']]);
    const grant = (keys: string[]) => ({
      operations: ['extraction' as const],
      scopes: { site: keys },
      from: '2024-01-01',
      to: null,
    });
    const rules = {
      forAll: { sites: ['extraction' as const] },
      restricted: { counts: [grant(['alps.aiguilles', 'jura']), grant(['jura'])] },
    };
    expect(withRenamedScopeKeys(rules, renamed)).toEqual({
      forAll: { sites: ['extraction'] },
      restricted: { counts: [grant(['vanoise.aiguilles', 'jura']), grant(['jura'])] },
    });
    expect(withRenamedScopeKeys({ forAll: {}, restricted: { counts: [grant(['jura'])] } }, renamed)).toBeNull();
  });
});
