import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '../configuration';
import type { ApplicationModel } from '../configuration/model';
import { problemsOf } from './compatibility';
import { updateImpact, type StoredRowCounts } from './updateImpact';

/** What an update is refused for, or asked to confirm. */
const findBreakingChanges = (previous: ApplicationModel, next: ApplicationModel, rows: StoredRowCounts) =>
  problemsOf(updateImpact(previous, next, rows), ['forbidden', 'dataLoss']);

const fixtures = path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations');

function model(file: string, edit: (text: string) => string = (t) => t): ApplicationModel {
  const result = validateConfiguration(
    new TextEncoder().encode(edit(readFileSync(path.join(fixtures, file), 'utf8'))),
    file,
  );
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('updates that would orphan stored data', () => {
  const v1 = model('fieldnotes-v1.yaml');

  it('are allowed when nothing is stored', () => {
    const withoutCounts = model('fieldnotes-v1.yaml', (t) => t.replace(/ {2}counts:[\s\S]*$/, ''));
    expect(findBreakingChanges(v1, withoutCounts, {})).toEqual([]);
  });

  it('allow adding components to entries with rows', () => {
    expect(findBreakingChanges(v1, model('fieldnotes-v2.yaml'), { sites: 3, counts: 10 })).toEqual([]);
  });

  it('refuse removing an entry that has rows', () => {
    const withoutCounts = model('fieldnotes-v1.yaml', (t) => t.replace(/ {2}counts:[\s\S]*$/, ''));
    expect(findBreakingChanges(v1, withoutCounts, { counts: 10 })).toEqual([
      { code: 'REMOVED_DATA_WITH_ROWS', path: 'OA_data > counts', params: { dataName: 'counts', rows: 10 } },
    ]);
  });

  it('refuse removing a component, changing the natural key or dropping a scope of an entry with rows', () => {
    const next = model('fieldnotes-v1.yaml', (t) =>
      t
        .replace('      altitude:\n        OA_checker: {OA_name: OA_integer}\n', '')
        .replace('OA_naturalKey: [code]', 'OA_naturalKey: [code, label]')
        .replace('      OA_authorizationScope: [site]\n', '      OA_authorizationScope: [species]\n'),
    );
    const problems = findBreakingChanges(v1, next, { sites: 2, counts: 5 });
    expect(problems.map((p) => [p.code, p.params.dataName])).toEqual([
      ['REMOVED_COMPONENT_WITH_ROWS', 'sites'],
      ['CHANGED_NATURAL_KEY_WITH_ROWS', 'sites'],
      ['REMOVING_AUTHORIZATION_SCOPE_ATTRIBUTES_ERROR', 'counts'],
    ]);
    expect(problems[0].params.component).toBe('altitude');
    expect(problems[2].params.component).toBe('site');
  });

  it('refuse turning a reference with rows into a data type', () => {
    const next = model('fieldnotes-v1.yaml', (t) => t.replace('  species:\n', '  species:\n    OA_tags: [__DATA__]\n'));
    expect(findBreakingChanges(v1, next, { species: 4 }).map((p) => p.code)).toEqual(['CHANGED_DATA_KIND_WITH_ROWS']);
  });
});
