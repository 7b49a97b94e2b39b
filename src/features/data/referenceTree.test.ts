import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfiguration } from '@/domain/configuration';
import { filterTree, referenceTree, tagsInUse, type TreeNode } from './referenceTree';

const yaml = `
OA_version: 2.0.1
OA_application: {OA_name: tree, OA_version: 1.0.0}
OA_tags:
  water: {fr: Eau, en: Water}
  soil: {fr: Sol, en: Soil}
OA_data:
  site_types:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null}
  sites:
    OA_tags: [water]
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      type:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: site_types, OA_isParent: true}}}
  plots:
    OA_tags: [soil, __ORDER_1__]
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites, OA_isParent: true}}}
  units:
    OA_tags: [__ORDER_0__]
    OA_naturalKey: [code]
    OA_basicComponents: {code: null}
`;

const shape = (nodes: TreeNode[]): unknown => nodes.map((n) => (n.children.length ? { [n.entry.name]: shape(n.children) } : n.entry.name));

describe('the reference tree', () => {
  const result = validateConfiguration(new TextEncoder().encode(yaml), 'tree.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const model = result.value;

  it('puts children under their parents, ordered by order tag then name', () => {
    expect(shape(referenceTree(model))).toEqual(['units', { site_types: [{ sites: ['plots'] }] }]);
  });

  it('keeps tagged nodes and the way to them', () => {
    expect(shape(filterTree(referenceTree(model), new Set(['soil'])))).toEqual([{ site_types: [{ sites: ['plots'] }] }]);
    expect(shape(filterTree(referenceTree(model), new Set(['water'])))).toEqual([{ site_types: ['sites'] }]);
    expect(tagsInUse(model)).toEqual(['water', 'soil']);
  });

  it('handles our fixture application', () => {
    const fixture = readFileSync(path.resolve(import.meta.dirname, '../../../tests/fixtures/configurations/fieldnotes-v1.yaml'));
    const fieldnotes = validateConfiguration(fixture, 'fieldnotes-v1.yaml');
    if (!fieldnotes.ok) throw new Error('fixture invalid');
    expect(shape(referenceTree(fieldnotes.value))).toEqual(['sites', 'species']);
    expect(shape(referenceTree(fieldnotes.value, 'dataType'))).toEqual(['counts']);
  });
});
