import { describe, expect, it } from 'vitest';
import { deserializeModel, serializeModel, validateConfiguration, type ApplicationModel } from './index';

/** A small application written for these tests: a site hierarchy, units, and a versioned data type. */
const APPLICATION = `OA_version: 2.0.1
OA_application:
  OA_name: lakes
  OA_version: 2.1.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Lacs, en: Lakes}
OA_tags:
  place: {fr: lieu, en: place}
OA_rightsRequest:
  OA_formFields:
    purpose:
      OA_required: true
      OA_checker: {OA_name: OA_string}
OA_additionalFiles:
  protocols:
    OA_i18n:
      OA_title: {en: Protocols}
    OA_formFields:
      issued:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
OA_data:
  samples:
    OA_tags: [__DATA__, __ORDER_2__]
    OA_separator: ","
    OA_dataHeaderLine: 3
    OA_dataFirstLine: 5
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_importHeader: Site name
        OA_mandatory: true
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_importHeader: {OA_headerName: Date}
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: MM/yyyy, OA_duration: 1 month}}
    OA_constantComponents:
      campaign:
        OA_importHeaderTarget: {OA_rowNumber: 1, OA_columnNumber: 2}
      unit_row:
        OA_importHeaderTarget: {OA_rowNumber: 4, OA_columnName: site}
    OA_computedComponents:
      label:
        OA_computation: {OA_expression: "'sample'"}
      site_key:
        OA_withNaturalKeyComponents: [site]
    OA_patternComponents:
      reading:
        OA_patternForComponents: "(.*)_value"
        OA_componentQualifiers:
          - variable:
              OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: units}}}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - {OA_reference: sites, OA_component: site}
        OA_timeScope: {OA_component: day}
  units:
    OA_naturalKey: [code]
    OA_basicComponents:
      code:
        OA_tags: [__HIDDEN__, place]
  sites:
    OA_tags: [place]
    OA_naturalKey: [code]
    OA_i18nDisplayPattern:
      OA_title: {en: "{name} ({code})"}
    OA_basicComponents:
      code: null
      name:
        OA_langRestrictions: [en]
      parent:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites, OA_isParent: true}}}
      kind:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: units, OA_isParent: true}}}
`;

function model(text = APPLICATION): ApplicationModel {
  const result = validateConfiguration(new TextEncoder().encode(text), 'lakes.yaml');
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.value;
}

describe('the application model', () => {
  it('resolves the application defaults', () => {
    const application = model();
    expect(application).toMatchObject({
      formatVersion: '2.0.1',
      name: 'lakes',
      version: '2.1.0',
      defaultLanguage: 'en',
      comment: 'no comment',
    });
    expect(application.i18n).toEqual({ title: { fr: 'Lacs', en: 'Lakes' }, description: {} });
    expect(application.domainTags).toEqual([{ name: 'place', labels: { fr: 'lieu', en: 'place' } }]);
    expect(application.rightsRequest?.fields).toEqual([
      {
        name: 'purpose',
        i18n: { title: {}, description: {} },
        required: true,
        checker: { kind: 'string', pattern: null, multiplicity: 'ONE' },
      },
    ]);
    expect(application.additionalFiles[0]).toMatchObject({
      name: 'protocols',
      i18n: { title: { en: 'Protocols' } },
      fields: [{ name: 'issued', checker: { kind: 'date', pattern: 'dd/MM/yyyy' } }],
    });
  });

  it('tells references from data types and orders loads after dependencies', () => {
    const application = model();
    expect(application.data.map((entry) => [entry.name, entry.kind])).toEqual([
      ['samples', 'dataType'],
      ['units', 'reference'],
      ['sites', 'reference'],
    ]);
    expect(application.loadOrder).toEqual(['units', 'sites', 'samples']);
    const [samples, units, sites] = application.data;
    expect(samples.dependsOn).toEqual(['sites', 'units']);
    expect(units.dependsOn).toEqual([]);
    expect(sites.hierarchy).toEqual({
      parents: [{ component: 'kind', reference: 'units' }],
      recursiveComponent: 'parent',
      orderStrict: false,
    });
    expect(sites.components[3].checker).toEqual({
      kind: 'reference',
      reference: 'units',
      isParent: true,
      isRecursive: false,
      multiplicity: 'ONE',
    });
    expect(sites.components[2].checker).toMatchObject({ isParent: true, isRecursive: true });
  });

  it('counts the references an expression rule reads among the dependencies', () => {
    const withRule = APPLICATION.replace(
      '  units:\n',
      '  notes:\n    OA_naturalKey: [text]\n    OA_basicComponents: {text: null}\n    OA_validations:\n      known:\n        OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return true", OA_references: [sites]}}}\n  units:\n',
    );
    const notes = model(withRule).data.find((entry) => entry.name === 'notes')!;
    expect(notes.dependsOn).toEqual(['sites']);
    expect(model(withRule).loadOrder.indexOf('notes')).toBeGreaterThan(model(withRule).loadOrder.indexOf('sites'));
  });

  it('decodes tags, with the default order', () => {
    const [samples, units] = model().data;
    expect(samples.tags).toEqual({ domain: [], hidden: false, order: 2 });
    expect(units.components[0].tags).toEqual({ domain: ['place'], hidden: true, order: 99_999 });
  });

  it('gives the CSV engine its mapping plan', () => {
    const samples = model().data[0];
    expect(samples.csv).toEqual({
      separator: ',',
      headerLine: 3,
      firstDataLine: 5,
      allowUnexpectedColumns: false,
      columns: [
        { component: 'site', header: 'Site name', mandatory: true },
        { component: 'day', header: 'Date', mandatory: false },
      ],
      patterns: [
        {
          component: 'reading',
          headerPattern: { source: '(.*)_value', groupCount: 1 },
          qualifiers: [{ storedKey: 'reading::variable', group: 1 }],
          adjacents: [],
        },
      ],
      dynamics: [],
      constants: [
        { component: 'campaign', row: 1, zone: 'preHeader', column: { number: 2 } },
        { component: 'unit_row', row: 4, zone: 'postHeader', column: { header: 'Site name' } },
      ],
      defaults: [],
      computed: ['label', 'site_key'],
    });
    expect(samples.components.find((component) => component.key === 'site_key')).toMatchObject({
      kind: 'computed',
      computation: { kind: 'naturalKey', components: ['site'] },
    });
    expect(samples.components.find((component) => component.key === 'label')).toMatchObject({
      computation: {
        kind: 'expression',
        expression: { source: "'sample'", references: [], exceptions: {}, multiplicity: 'ONE' },
      },
    });
  });

  it('carries what rights and deposits need', () => {
    const samples = model().data[0];
    const month = { source: '1 month', parts: [{ amount: 1, unit: 'month' }] };
    expect(samples.authorization).toEqual({
      scopes: [{ component: 'site', reference: 'sites' }],
      timeScope: { component: 'day', pattern: 'MM/yyyy', duration: month },
    });
    expect(samples.submission).toEqual({
      strategy: 'OA_VERSIONING',
      referenceScopes: [
        {
          reference: 'sites',
          component: 'site',
          i18n: { title: {}, description: {} },
          exportHeader: { title: {}, description: {} },
        },
      ],
      timeScope: { component: 'day', pattern: 'MM/yyyy', duration: month },
      fileName: null,
    });
  });

  it('parses display patterns into text and placeholders', () => {
    const sites = model().data[2];
    expect(sites.displayPattern?.title.en).toEqual({
      source: '{name} ({code})',
      parts: [{ component: 'name' }, { text: ' (' }, { component: 'code' }, { text: ')' }],
    });
    expect(sites.components[1].langRestrictions).toEqual(['en']);
  });

  it('defaults a data entry without settings to a reference read with ";" from line 1', () => {
    const units = model().data[1];
    expect(units.csv).toMatchObject({
      separator: ';',
      headerLine: 1,
      firstDataLine: 2,
      allowUnexpectedColumns: false,
      columns: [{ component: 'code', header: 'code', mandatory: false }],
    });
    expect(units.submission).toEqual({
      strategy: 'OA_INSERTION',
      referenceScopes: [],
      timeScope: null,
      fileName: null,
    });
    expect(units.authorization).toBeNull();
  });
});

describe('the stored form of the model', () => {
  it('reads back to the same model', () => {
    const application = model();
    expect(deserializeModel(serializeModel(application))).toEqual(application);
  });

  it('is the same text whatever the order of keys in memory, with sorted keys and arrays kept in order', () => {
    const application = model();
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, inner]) => [key, reverseKeys(inner)]),
            )
          : value;
    const reordered = reverseKeys(application) as ApplicationModel;
    expect(serializeModel(reordered)).toBe(serializeModel(application));
    const text = serializeModel(application);
    expect(text.indexOf('"additionalFiles"')).toBeLessThan(text.indexOf('"comment"'));
    expect(JSON.parse(text).loadOrder).toEqual(['units', 'sites', 'samples']);
    expect(serializeModel(model())).toBe(text);
  });

  it('refuses a text that is not a model', () => {
    expect(() => deserializeModel('{"name": "x"}')).toThrow();
  });
});
