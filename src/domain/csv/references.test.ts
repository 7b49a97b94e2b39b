import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReferenceIndex, keysDesignatedBy, valuesRead } from './references';
import { modelOf } from './testKit';

const row = (naturalKey: string, parent = '') => ({
  naturalKey,
  hierarchicalKey: `${parent}sitesK${naturalKey}`,
  values: {},
});

describe('the texts that name a reference row', () => {
  it('are its natural key without leading empty parts, its natural key and its hierarchical key, each read back as that row', () => {
    const index = new ReferenceIndex('sites', [row('NULL_KEY__oir', 'typesKbassin.'), row('oir__p1')]);
    expect(index.spellings('typesKbassin.sitesKNULL_KEY__oir')).toEqual([
      'oir',
      'NULL_KEY__oir',
      'typesKbassin.sitesKNULL_KEY__oir',
    ]);
    expect(index.spellings('sitesKoir__p1')).toEqual(['oir__p1', 'sitesKoir__p1']);
  });

  it('leave out a short text that names another row, and know nothing of rows they do not hold', () => {
    const index = new ReferenceIndex('sites', [row('NULL_KEY__oir'), row('oir')]);
    expect(index.spellings('sitesKNULL_KEY__oir')).toEqual(['NULL_KEY__oir', 'sitesKNULL_KEY__oir']);
    expect(index.spellings('sitesKnowhere')).toEqual([]);
  });
});

describe('the keys a text may designate', () => {
  const part = fc.constantFrom('NULL_KEY', 'oir', 'Oir', 'p1', 'massif_central');
  const naturalKey = fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('__'));
  const text = fc.oneof(
    naturalKey,
    naturalKey.map((key) => `sitesK${key}`),
    fc.constantFrom('Massif Central', 'OIR', 'oir ', '', 'é:x', 'typesKbassin.sitesKoir'),
  );

  it('find in the rows holding them the row the whole reference resolves', () => {
    fc.assert(
      fc.property(fc.uniqueArray(naturalKey, { maxLength: 8 }), fc.boolean(), text, (keys, nested, wanted) => {
        const rows = keys.map((key) => row(key, nested ? 'typesKbassin.' : ''));
        const designated = new Set(keysDesignatedBy(wanted, 3));
        const held = rows.filter((r) => designated.has(r.naturalKey) || designated.has(r.hierarchicalKey));
        expect(new ReferenceIndex('sites', held).resolve(wanted)).toEqual(
          new ReferenceIndex('sites', rows).resolve(wanted),
        );
      }),
    );
  });

  it('name a key with fewer leading empty parts than the reference has parts', () => {
    expect(keysDesignatedBy('oir', 3)).toEqual(['oir', 'NULL_KEY__oir', 'NULL_KEY__NULL_KEY__oir']);
    expect(keysDesignatedBy('Massif Central', 1)).toEqual([
      'Massif Central',
      'massif_central',
      'NULL_KEY__massif_central',
    ]);
  });
});

describe('what a check reads of the rows of a reference', () => {
  const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: reads, OA_version: 1.0.0}
OA_data:
  units:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null, label: null}
  properties:
    OA_naturalKey: [name]
    OA_basicComponents: {name: null, unit: null}
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      unit: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: units}}}}
      twin: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
    OA_dynamicComponents:
      measured: {OA_headerPrefix: "p_", OA_reference: properties, OA_referenceComponentToLookForHeader: name}
    OA_validations:
      known:
        OA_checker:
          OA_name: OA_groovyExpression
          OA_params: {OA_groovy: {OA_expression: "return references.units.size() > 0", OA_references: [units]}}
`);
  const entry = (name: string) => model.data.find((item) => item.name === name)!;

  it('is every value of the rows an expression loads, the values dynamic columns are named after, else none', () => {
    expect(valuesRead(entry('sites'), 'units')).toBe('every');
    expect(valuesRead(entry('sites'), 'properties')).toEqual(['name']);
    expect(valuesRead(entry('sites'), 'sites')).toEqual([]);
  });
});
