import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import type { ApplicationModel } from '../configuration/model';
import { dataLossSummary, itemsOf, updateImpact } from './updateImpact';

const fixtures = path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations');
const v1Text = readFileSync(path.join(fixtures, 'fieldnotes-v1.yaml'), 'utf8');

function model(edit: (text: string) => string = (t) => t): ApplicationModel {
  const result = validateConfiguration(new TextEncoder().encode(edit(v1Text)), 'fieldnotes.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

const v1 = model();
const entryOf = (impact: ReturnType<typeof updateImpact>, name: string) =>
  impact.entries.find((entry) => entry.dataName === name)!;

describe('the impact of a configuration update on stored rows', () => {
  it('is info only for an entry without rows, whatever changes', () => {
    const next = model((t) =>
      t
        .replace('OA_naturalKey: [code]', 'OA_naturalKey: [label]')
        .replace('      altitude:\n        OA_checker: {OA_name: OA_integer}\n', ''),
    );
    const impact = updateImpact(v1, next, {});
    expect(itemsOf(impact, 'forbidden')).toEqual([]);
    expect(itemsOf(impact, 'dataLoss')).toEqual([]);
    expect(entryOf(impact, 'sites').items.map((item) => item.change)).toEqual([
      'componentRemoved',
      'naturalKeyChanged',
    ]);
    expect(entryOf(impact, 'sites').needsRecheck).toBe(false);
  });

  it('counts the values a removed component deletes, and the rows a removed entry deletes', () => {
    const next = model((t) =>
      t
        .replace('      altitude:\n        OA_checker: {OA_name: OA_integer}\n', '')
        .replace('      label: null\n', '')
        .replace(/\{label\}/g, '{code}')
        .replace(/ {2}species:\n[\s\S]*?(?= {2}counts:)/, '')
        .replace(/ {6}species:\n.*\n/, '')
        .replace('OA_naturalKey: [site, species, day]', 'OA_naturalKey: [site, day]'),
    );
    const impact = updateImpact(v1, next, { sites: 7, species: 4 });
    expect(entryOf(impact, 'sites').items).toEqual(
      ['label', 'altitude'].map((component) => ({
        change: 'componentRemoved',
        severity: 'dataLoss',
        code: 'REMOVED_COMPONENT_WITH_ROWS',
        component,
        rows: 7,
      })),
    );
    expect(entryOf(impact, 'species').items).toEqual([
      { change: 'entryRemoved', severity: 'dataLoss', code: 'REMOVED_DATA_WITH_ROWS', rows: 4 },
    ]);
    expect(dataLossSummary(impact)).toEqual({
      entries: ['species'],
      rows: 4,
      components: ['sites.label', 'sites.altitude'],
      values: 7,
    });
  });

  it('forbids changing the natural key, the kind or an authorization scope of an entry with rows', () => {
    const next = model((t) =>
      t
        .replace('OA_naturalKey: [latin_name]', 'OA_naturalKey: [common_name]')
        .replace('  species:\n    OA_i18n:', '  species:\n    OA_tags: [__DATA__]\n    OA_i18n:')
        .replace('OA_authorizationScope: [site]', 'OA_authorizationScope: [species]'),
    );
    const impact = updateImpact(v1, next, { species: 3, counts: 2 });
    expect(itemsOf(impact, 'forbidden').map(({ entry, item }) => [entry.dataName, item.code])).toEqual([
      ['species', 'CHANGED_DATA_KIND_WITH_ROWS'],
      ['species', 'CHANGED_NATURAL_KEY_WITH_ROWS'],
      ['counts', 'REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR'],
    ]);
    expect(entryOf(impact, 'species').needsRecheck).toBe(false);
  });

  it('forbids another time scope while rows hold the periods the former one gave them, not another way to write it', () => {
    const monthly = model((t) =>
      t.replace(
        'OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}',
        'OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: MM/yyyy}}',
      ),
    );
    const timeless = model((t) => t.replace('      OA_timeScope: day\n', ''));
    for (const next of [monthly, timeless]) {
      expect(itemsOf(updateImpact(v1, next, { counts: 5 }), 'forbidden')).toEqual([
        expect.objectContaining({
          item: expect.objectContaining({ change: 'timeScopeChanged', code: 'CHANGED_TIME_SCOPE_WITH_ROWS' }),
        }),
      ]);
      expect(itemsOf(updateImpact(v1, next, {}), 'forbidden')).toEqual([]);
      expect(itemsOf(updateImpact(next, v1, { counts: 5 }), 'forbidden')).toHaveLength(1);
    }
  });

  it('names what made a checker stricter and asks for the stored rows to be checked again', () => {
    const next = model((t) =>
      t
        .replace(
          '      altitude:\n        OA_checker: {OA_name: OA_integer}',
          '      altitude:\n        OA_checker: {OA_name: OA_integer, OA_params: {OA_max: 1000}}',
        )
        .replace('      label: null', '      label:\n        OA_required: true')
        .replace(
          'OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}',
          'OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: yyyy-MM-dd}}',
        )
        .replace(
          '      individuals:\n        OA_checker: {OA_name: OA_integer}',
          '      individuals:\n        OA_checker: {OA_name: OA_integer, OA_params: {OA_multiplicity: MANY}}',
        ),
    );
    const impact = updateImpact(v1, next, { sites: 3000, counts: 5 });
    expect(entryOf(impact, 'sites').items).toEqual([
      {
        change: 'checkerChanged',
        severity: 'info',
        component: 'label',
        before: ['none'],
        after: ['none'],
        tightened: ['required'],
      },
      {
        change: 'checkerChanged',
        severity: 'info',
        component: 'altitude',
        before: ['integer'],
        after: ['integer'],
        tightened: ['max'],
      },
    ]);
    expect(entryOf(impact, 'sites').needsRecheck).toBe(true);
    expect(entryOf(impact, 'counts').items.map((item) => item.tightened)).toEqual([['pattern'], ['multiplicity']]);
    expect(entryOf(impact, 'species').needsRecheck).toBe(false);
  });

  it('does not recheck rows for a looser checker or an optional new component', () => {
    const tight = model((t) =>
      t.replace(
        '      altitude:\n        OA_checker: {OA_name: OA_integer}',
        '      altitude:\n        OA_checker: {OA_name: OA_integer, OA_params: {OA_min: 0, OA_max: 1000}}',
      ),
    );
    const loose = model((t) =>
      t
        .replace(
          '      altitude:\n        OA_checker: {OA_name: OA_integer}',
          '      altitude:\n        OA_checker: {OA_name: OA_integer, OA_params: {OA_min: -10, OA_max: 9000}}',
        )
        .replace('      label: null', '      label: null\n      region: null'),
    );
    const impact = updateImpact(tight, loose, { sites: 10 });
    expect(entryOf(impact, 'sites').items).toEqual([
      {
        change: 'checkerChanged',
        severity: 'info',
        component: 'altitude',
        before: ['integer'],
        after: ['integer'],
        tightened: [],
      },
      { change: 'componentAdded', severity: 'info', component: 'region', required: false },
    ]);
    expect(entryOf(impact, 'sites').needsRecheck).toBe(false);
    const stricter = updateImpact(loose, tight, { sites: 10 }).entries[0].items;
    expect(stricter.find((item) => item.change === 'checkerChanged')?.tightened).toEqual(['min', 'max']);
  });

  it('lists new entries after the previous ones', () => {
    const next = model((t) => `${t}  regions:\n    OA_naturalKey: [code]\n    OA_basicComponents:\n      code: null\n`);
    const impact = updateImpact(v1, next, { sites: 1 });
    expect(impact.entries.map((entry) => entry.dataName)).toEqual(['sites', 'species', 'counts', 'regions']);
    expect(entryOf(impact, 'regions').items).toEqual([{ change: 'entryAdded', severity: 'info' }]);
  });
});
