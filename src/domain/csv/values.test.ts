/** Stored values, keys, links and periods of valid files (the shapes documented in index.ts). */
import { describe, expect, it } from 'vitest';
import { modelOf, references, stored, validate } from './testKit';

const refs = references();

describe('stored values', () => {
  it('converts every checker and keeps texts without one', () => {
    const { rows, report } = validate(
      'stations',
      'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity\n' +
        'Lac Bleu;S1;01/02/2003;12,5;3;TRUE;AB123; a, b ,,;Nord,Sud;  ok  ;7.1;\n',
      { references: refs },
    );
    expect(report.errorCount).toBe(0);
    expect(rows[0]).toEqual({
      lineNumber: 2,
      naturalKey: 'lac_bleu__s1',
      hierarchicalKey: 'zonesKnord.zonesKlac_bleu.stationsKlac_bleu__s1',
      values: {
        zone: 'zonesKnord.zonesKlac_bleu',
        code: 'S1',
        opened: 'date:2003-02-01T00:00:00:dd/MM/yyyy',
        depth: 12.5,
        slots: 3,
        automatic: true,
        serial: 'AB123',
        tags: ['a', 'b'],
        neighbours: ['zonesKnord', 'zonesKsud'],
        note: 'ok',
        measured: { propertiesKph: '7.1', propertiesKconductivity: '' },
      },
      links: [
        { component: 'zone', reference: 'zones', hierarchicalKey: 'zonesKnord.zonesKlac_bleu' },
        { component: 'neighbours', reference: 'zones', hierarchicalKey: 'zonesKnord' },
        { component: 'neighbours', reference: 'zones', hierarchicalKey: 'zonesKsud' },
        { component: 'measured', reference: 'properties', hierarchicalKey: 'propertiesKph' },
      ],
    });
  });

  it('stores empty values as empty texts, [""] with MANY, and columns absent from the file as empty', () => {
    const { rows } = validate('stations', 'zone;code\nNord;S2\n', { references: refs });
    expect(rows[0].values).toMatchObject({
      opened: '',
      depth: '',
      tags: [''],
      neighbours: [''],
      note: '',
      measured: {},
    });
  });

  it('finds references by hierarchical key, natural key, escaped text or key without leading empty parts', () => {
    const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: refs, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [area, name]
    OA_basicComponents: {area: null, name: null}
  visits:
    OA_naturalKey: [visit]
    OA_basicComponents:
      visit: null
      site: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
`);
    const sites = validate('sites', 'area;name\n;Étang Sud\nNord;Pré\n', { model });
    expect(sites.rows.map((row) => row.naturalKey)).toEqual(['NULL_KEY__etang_sud', 'nord__pre']);
    const visits = validate(
      'visits',
      'visit;site\n1;sitesKnord__pre\n2;nord__pre\n3;Étang Sud\n4;etang_sud\n5;NULL_KEY__etang_sud\n',
      { model, references: { sites: stored(sites.rows) } },
    );
    expect(visits.report.errors).toEqual([]);
    expect(visits.rows.map((row) => row.values.site)).toEqual([
      'sitesKnord__pre',
      'sitesKnord__pre',
      'sitesKNULL_KEY__etang_sud',
      'sitesKNULL_KEY__etang_sud',
      'sitesKNULL_KEY__etang_sud',
    ]);
  });

  it('reads constants above and below the header, defaults, computed values and pattern groups', () => {
    const { rows, report } = validate(
      'readings',
      'campagne;Été 24\nnote\nstation;day;level;quality;T_10;Q_10;T_25;Q_25\nunits;;cm;;\nS1;01/03/2024;;good;12,5;ok;-1;\n',
      { references: refs },
    );
    expect(report.errors).toEqual([]);
    expect(rows[0].values).toEqual({
      station: 'S1',
      day: 'date:2024-03-01T00:00:00:dd/MM/yyyy',
      level: 0,
      quality: 'good',
      campaign: 'Été 24',
      unit: 'cm',
      stationKey: 'ete_24__s1',
      ratio: '0',
      temperature: [
        { header: 'T_10', value: 12.5, qualifiers: { depthClass: 10 }, adjacents: { flag: 'ok' } },
        { header: 'T_25', value: -1, qualifiers: { depthClass: 25 }, adjacents: { flag: '' } },
      ],
    });
    expect(rows[0].period).toEqual({ from: '2024-03-01T00:00:00', to: '2024-03-02T00:00:00' });
    expect(rows[0].naturalKey).toBe('s1__01_03_2024');
  });

  it('builds composite keys of lists with MANY (OA_withNaturalKeyComponents)', () => {
    const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: many, OA_version: 1.0.0}
OA_data:
  pairs:
    OA_naturalKey: [id]
    OA_basicComponents: {id: null, lefts: null, rights: null}
    OA_computedComponents:
      keys:
        OA_withNaturalKeyComponents: [lefts, rights]
        OA_checker: {OA_name: OA_string, OA_params: {OA_multiplicity: MANY}}
`);
    const { rows } = validate('pairs', 'id;lefts;rights\n1;A,B;x,y\n2;;\n', { model });
    expect(rows.map((row) => row.values.keys)).toEqual([['a__x', 'b__y'], ['']]);
  });

  it('runs a checker of OA_validations on its components and stores what it gives', () => {
    const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: rules, OA_version: 1.0.0}
OA_data:
  events:
    OA_naturalKey: [id]
    OA_basicComponents: {id: null, when: null, count: null}
    OA_validations:
      whenIsADate:
        OA_components: [when]
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: MM/yyyy, OA_duration: 1 month}}
      countIsSmall:
        OA_components: [count]
        OA_required: true
        OA_checker: {OA_name: OA_integer, OA_params: {OA_max: 5}}
`);
    const { rows, report } = validate('events', 'id;when;count\n1;02/2024;3\n2;13/2024;\n', { model });
    expect(rows[0].values).toEqual({ id: '1', when: 'date:2024-02-01T00:00:00:MM/yyyy', count: 3 });
    expect(report.errors.map((error) => [error.lineNumber, error.code, error.params.validation])).toEqual([
      [3, 'invalidDateWithComponent', 'whenIsADate'],
      [3, 'requiredValueWithComponent', 'countIsSmall'],
    ]);
  });
});

describe('keys', () => {
  it('escapes natural keys as ltree labels (§9.1)', () => {
    const { rows } = validate('properties', 'name;unit\nConductivité électrique;\n08:45:00;\nHaut-Rhône;\n', {
      references: refs,
    });
    expect(rows.map((row) => row.naturalKey)).toEqual(['conductivite_electrique', '08COLON45COLON00', 'hautrhone']);
  });

  it('prefixes hierarchical keys with the parent row and follows recursive parents, children before parents', () => {
    const { rows, report } = validate('zones', 'code;label;parent\nRive;;Lac Bleu\nLac Bleu;;Nord\nNord;;\n');
    expect(report.errorCount).toBe(0);
    expect(rows.map((row) => [row.lineNumber, row.hierarchicalKey, row.values.parent])).toEqual([
      [2, 'zonesKnord.zonesKlac_bleu.zonesKrive', 'zonesKnord.zonesKlac_bleu'],
      [3, 'zonesKnord.zonesKlac_bleu', 'zonesKnord'],
      [4, 'zonesKnord', ''],
    ]);
  });

  it('finds recursive parents among the rows already stored', () => {
    const { rows, report } = validate('zones', 'code;label;parent\nÎle;;Rive\n', { references: refs });
    expect(report.errorCount).toBe(0);
    expect(rows[0].hierarchicalKey).toBe('zonesKnord.zonesKlac_bleu.zonesKrive.zonesKile');
  });
});

describe('the same inputs, the same results', () => {
  it('gives byte-identical rows and reports twice', () => {
    const text = 'zone;code;opened;depth;slots\nNord;S1;01/01/2000;1;2\nSud;S2;x;y;z\nNord;S1;01/01/2000;1;2\n';
    const first = validate('stations', text, { references: refs });
    const second = validate('stations', text, { references: refs });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });
});
