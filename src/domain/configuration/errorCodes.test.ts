import { describe, expect, it } from 'vitest';
import { CONFIGURATION_ERROR_CODES, configurationMessageKey, type ConfigurationError } from './errorCodes';
import { DURATION_LIMITS } from './duration';
import { validateConfiguration } from './index';
import { MAX_DATE_PATTERN_LENGTH } from './javaDatePattern';

/**
 * One test per error code the validator raises (§18.2), each on a small configuration written for it. The base
 * application below is valid; every test changes one thing and checks code, path and params.
 */
const HEADER = `OA_version: 2.0.1
OA_application:
  OA_name: demo
  OA_version: 1.0.0
OA_tags:
  field:
    fr: terrain
    en: field
`;

const STATIONS = `  stations:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
`;

function configuration(data: string, extra = ''): string {
  return `${HEADER}${extra}OA_data:\n${STATIONS}${data}`;
}

/** A data type `measures` whose body is given, indented under its key. */
function measures(body: string): string {
  const indented = body
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  return configuration(`  measures:\n${indented}\n`);
}

function validate(text: string) {
  return validateConfiguration(new TextEncoder().encode(text), 'test.yaml');
}

function errorsOf(text: string): ConfigurationError[] {
  const result = validate(text);
  if (result.ok) throw new Error('expected errors, the configuration is valid');
  return result.errors;
}

/** The only error of a configuration with one mistake. */
function onlyError(text: string): ConfigurationError {
  const errors = errorsOf(text);
  expect(errors.map((error) => error.code)).toHaveLength(1);
  return errors[0];
}

const MEASURES = `
OA_tags: [__DATA__]
OA_naturalKey: [station, day]
OA_basicComponents:
  station:
    OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: stations}}}
  day:
    OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
  value:
    OA_checker: {OA_name: OA_float}
`;

describe('the base configuration of these tests', () => {
  it('is valid', () => {
    const result = validate(measures(MEASURES));
    expect(result.ok ? result.value.data.map((entry) => [entry.name, entry.kind]) : result.errors).toEqual([
      ['stations', 'reference'],
      ['measures', 'dataType'],
    ]);
  });
});

describe('whole-file codes', () => {
  it('EMPTY_FILE', () => {
    expect(onlyError('')).toEqual({ code: 'EMPTY_FILE', path: '', params: {} });
    expect(configurationMessageKey('EMPTY_FILE')).toBe('emptyFile');
  });

  it('INVALID_CONFIGURATION_FILE', () => {
    expect(onlyError('a plain sentence')).toMatchObject({
      code: 'INVALID_CONFIGURATION_FILE',
      params: { reason: 'rootNotMap' },
      line: 1,
      column: 1,
    });
  });

  it('DUPLICATE_KEY', () => {
    expect(onlyError(`${HEADER}OA_tags:\n  a1:\n`)).toMatchObject({
      code: 'DUPLICATE_KEY',
      path: '',
      line: 9,
      column: 1,
    });
  });

  it('UNEXPECTED_CHARACTER, INVALID_TOKEN, UNEXPECTED_EOF, MALFORMED_NUMBER, UNTERMINATED_STRING, MALFORMED_COMMENT', () => {
    expect(onlyError(`${HEADER}OA_data: @x\n`)).toMatchObject({ code: 'UNEXPECTED_CHARACTER', line: 9, column: 10 });
    expect(onlyError(`${HEADER}OA_data: a: b\n`)).toMatchObject({ code: 'INVALID_TOKEN', line: 9 });
    expect(onlyError(`${HEADER}OA_data: [a, b\n`)).toMatchObject({ code: 'UNEXPECTED_EOF', line: 10, column: 1 });
    expect(onlyError(`${HEADER}OA_data: !!int many\n`)).toMatchObject({ code: 'MALFORMED_NUMBER', line: 9 });
    expect(onlyError(`${HEADER}OA_comment: "open\n`)).toMatchObject({ code: 'UNTERMINATED_STRING' });
    expect(onlyError(`${HEADER}OA_data: "x"#note\n`)).toMatchObject({ code: 'MALFORMED_COMMENT', line: 9, column: 13 });
  });
});

describe('root and application', () => {
  it('MISSING_VERSION_APPLICATION stops at once', () => {
    expect(onlyError('OA_application:\n  OA_name: demo\nOA_whatever: 1\n')).toMatchObject({
      code: 'MISSING_VERSION_APPLICATION',
      path: 'OA_version',
      params: { expectedVersion: '2.0.1', actualVersion: null },
    });
  });

  it('UNSUPPORTED_OPENADOM_VERSION', () => {
    expect(onlyError(HEADER.replace('OA_version: 2.0.1', 'OA_version: 2'))).toMatchObject({
      code: 'UNSUPPORTED_OPENADOM_VERSION',
      path: 'OA_version',
      params: { actualVersion: '2', expectedVersion: '2.0.1' },
      line: 1,
      column: 13,
    });
  });

  it('UNSUPPORTED_NAME_APPLICATION', () => {
    expect(onlyError(HEADER.replace('OA_name: demo', 'OA_name: Demo-App'))).toMatchObject({
      code: 'UNSUPPORTED_NAME_APPLICATION',
      path: 'OA_application',
      params: { nameApplication: 'Demo-App' },
      line: 3,
    });
  });

  it('BAD_VERSION_PATTERN', () => {
    expect(onlyError(HEADER.replace('OA_version: 1.0.0', 'OA_version: deux'))).toMatchObject({
      code: 'BAD_VERSION_PATTERN',
      path: 'OA_application',
      params: { givenVersion: 'deux' },
    });
  });

  it('MISSING_REQUIRED_VALUE', () => {
    expect(onlyError(HEADER.replace('OA_name: demo', 'OA_name:'))).toMatchObject({
      code: 'MISSING_REQUIRED_VALUE',
      path: 'OA_application > OA_name',
      params: {},
    });
  });

  it('UNEXPECTED_SECTIONS', () => {
    expect(onlyError(`${HEADER}OA_extra: 1\n`)).toMatchObject({
      code: 'UNEXPECTED_SECTIONS',
      path: '',
      params: { unexpectedSections: ['OA_extra'], expectedSections: expect.arrayContaining(['OA_data', 'OA_tags']) },
      line: 9,
    });
  });

  it('UNEXPECTED_SECTION_WITH_APPROACHING_LABEL_SECTION', () => {
    expect(onlyError(`${HEADER}OA_datas:\n${STATIONS}`)).toMatchObject({
      code: 'UNEXPECTED_SECTION_WITH_APPROACHING_LABEL_SECTION',
      path: '',
      params: { unexpectedSection: 'OA_datas', approachingSection: 'OA_data' },
    });
  });

  it('MISSING_MANDATORIES_SECTIONS', () => {
    expect(onlyError('OA_version: 2.0.1\n')).toMatchObject({
      code: 'MISSING_MANDATORIES_SECTIONS',
      path: '',
      params: { missingMandatoriesSections: ['OA_application'] },
    });
  });

  it('BAD_OBJECT_REQUIRED_SECTIONS', () => {
    expect(onlyError('OA_version: 2.0.1\nOA_application: demo\n')).toMatchObject({
      code: 'BAD_OBJECT_REQUIRED_SECTIONS',
      path: 'OA_application',
      params: { expectedType: 'map', givenType: 'text', givenValue: 'demo' },
    });
  });

  it('BAD_LOCALE', () => {
    expect(
      onlyError(HEADER.replace('OA_version: 1.0.0', 'OA_version: 1.0.0\n  OA_defaultLanguage: french')),
    ).toMatchObject({
      code: 'BAD_LOCALE',
      path: 'OA_application > OA_defaultLanguage',
      params: { locale: 'french' },
    });
  });

  it('BAD_LOCALE_SECTION_TYPE', () => {
    expect(
      onlyError(HEADER.replace('OA_version: 1.0.0', 'OA_version: 1.0.0\n  OA_i18n:\n    OA_title:\n      fr: [a, b]')),
    ).toMatchObject({
      code: 'BAD_LOCALE_SECTION_TYPE',
      path: 'OA_application > OA_i18n > OA_title > fr',
    });
  });
});

describe('tags', () => {
  it('UNSUPORTED_I18N_KEY_LANGUAGE', () => {
    expect(onlyError(measures(MEASURES).replace('    fr: terrain', '    frrr: terrain'))).toMatchObject({
      code: 'UNSUPORTED_I18N_KEY_LANGUAGE',
      path: 'OA_tags > field',
    });
  });

  it('BAD_DOMAIN_TAG_PATTERN (and, as in the original, the declaration is then void)', () => {
    const errors = errorsOf(
      measures(MEASURES).replace('  field:', '  field_:').replace('OA_tags: [__DATA__]', 'OA_tags: [__DATA__, field]'),
    );
    expect(errors[0]).toMatchObject({
      code: 'BAD_DOMAIN_TAG_PATTERN',
      path: 'OA_tags',
      params: { domainTagPattern: '^[a-z][a-z_0-9]*[a-z0-9]$' },
    });
    expect(errors.map((error) => error.code)).toEqual([
      'BAD_DOMAIN_TAG_PATTERN',
      'ILLEGAL_DOMAIN_TAG_PATTERN',
      'NOT_EXPECTED_DOMAIN_TAGS',
    ]);
  });

  it('ILLEGAL_DOMAIN_TAG_PATTERN', () => {
    expect(onlyError(measures(MEASURES).replace('  field:', '  __HIDDEN__:'))).toMatchObject({
      code: 'ILLEGAL_DOMAIN_TAG_PATTERN',
      path: 'OA_tags',
      params: {
        reservedTagNames: ['HiddenTag[tagDefinition=HIDDEN_TAG]'],
        expectedPattern: '^[a-z][a-z_0-9]*[a-z0-9]$',
      },
    });
  });

  it('NOT_EXPECTED_DOMAIN_TAGS', () => {
    expect(
      onlyError(measures(MEASURES.replace('  value:\n', '  value:\n    OA_tags: [field, forest]\n'))),
    ).toMatchObject({
      code: 'NOT_EXPECTED_DOMAIN_TAGS',
      path: 'OA_data > measures > OA_basicComponents > value > OA_tags',
      params: { notExpectedDomainTags: ['forest'], expectedDomainTags: ['field'] },
    });
  });

  it('BAD_TAGS_PATTERNS, reported on the data entry itself', () => {
    expect(onlyError(measures(MEASURES.replace('OA_tags: [__DATA__]', 'OA_tags: [__DATA__, Field]')))).toMatchObject({
      code: 'BAD_TAGS_PATTERNS',
      path: 'OA_data > measures',
      params: {
        acceptedTagPatterns: ['__HIDDEN__', '__DATA__', '__REFERENCE__', '__ORDER_(\\d*)__', 'no-tag', 'field'],
      },
    });
  });
});

describe('data entries and components', () => {
  it('INVALID_IDENTIFICATEURS', () => {
    expect(
      onlyError(
        measures(
          MEASURES.replace('  value:', '  Value-2:').replace(
            'OA_naturalKey: [station, day]',
            'OA_naturalKey: [station, day]',
          ),
        ),
      ),
    ).toMatchObject({
      code: 'INVALID_IDENTIFICATEURS',
      path: 'OA_data > measures > OA_basicComponents',
      params: { invalidIdentificateurs: ['Value-2'] },
    });
  });

  it('MISSING_ANY_MANDATORIES_SECTIONS', () => {
    expect(onlyError(measures('OA_naturalKey: [code]'))).toMatchObject({
      code: 'MISSING_ANY_MANDATORIES_SECTIONS',
      path: 'OA_data > measures',
      params: {
        anyMandatorySections: [
          'OA_basicComponents',
          'OA_computedComponents',
          'OA_constantComponents',
          'OA_dynamicComponents',
          'OA_patternComponents',
        ],
      },
    });
  });

  it('EMPTY_ARRAY', () => {
    expect(onlyError(measures(MEASURES.replace('OA_naturalKey: [station, day]', 'OA_naturalKey: []')))).toMatchObject({
      code: 'EMPTY_ARRAY',
      path: 'OA_data > measures > OA_naturalKey',
    });
  });

  it('EXPECTED_ARRAY', () => {
    expect(
      onlyError(measures(MEASURES.replace('OA_naturalKey: [station, day]', 'OA_naturalKey: station'))),
    ).toMatchObject({
      code: 'EXPECTED_ARRAY',
      path: 'OA_data > measures > OA_naturalKey',
      params: { givenValue: 'station' },
    });
  });

  it('INVALID_NATURAL_KEY', () => {
    expect(
      onlyError(measures(MEASURES.replace('OA_naturalKey: [station, day]', 'OA_naturalKey: [station, date]'))),
    ).toMatchObject({
      code: 'INVALID_NATURAL_KEY',
      path: 'OA_data > measures',
      params: { invalidNaturalKeyElements: ['date'], expectedComponentLabel: ['station', 'day', 'value'] },
    });
  });

  it('BAD_BOOLEAN_REQUIRED_SECTIONS', () => {
    expect(onlyError(measures(MEASURES.replace('  value:\n', '  value:\n    OA_required: yes\n')))).toMatchObject({
      code: 'BAD_BOOLEAN_REQUIRED_SECTIONS',
      path: 'OA_data > measures > OA_basicComponents > value > OA_required',
      params: { givenValue: 'yes' },
    });
  });

  it('BAD_INTEGER_REQUIRED_SECTIONS', () => {
    expect(onlyError(measures(`${MEASURES}OA_dataHeaderLine: two`))).toMatchObject({
      code: 'BAD_INTEGER_REQUIRED_SECTIONS',
      path: 'OA_data > measures > OA_dataHeaderLine',
      params: { givenValue: 'two' },
    });
    expect(onlyError(measures(`${MEASURES}OA_dataHeaderLine: 3\nOA_dataFirstLine: 3`))).toMatchObject({
      code: 'BAD_INTEGER_REQUIRED_SECTIONS',
      path: 'OA_data > measures > OA_dataFirstLine',
      params: { givenValue: '3', minValue: 4 },
    });
  });

  it('DUPLICATED_COMPONENT_NAME', () => {
    expect(
      onlyError(measures(`${MEASURES}OA_computedComponents:\n  value:\n    OA_computation: {OA_expression: "'x'"}`)),
    ).toMatchObject({
      code: 'DUPLICATED_COMPONENT_NAME',
      path: 'OA_data > measures > OA_computedComponents > value',
      params: {
        duplicatedPathes: [
          'OA_data > measures > OA_basicComponents > value',
          'OA_data > measures > OA_computedComponents > value',
        ],
      },
    });
  });

  it('DUPLICATED_COMPONENT_HEADER', () => {
    expect(onlyError(measures(MEASURES.replace('  value:\n', '  value:\n    OA_importHeader: day\n')))).toMatchObject({
      code: 'DUPLICATED_COMPONENT_HEADER',
      path: 'OA_data > measures',
      params: { data: 'measures', duplicatedHeader: 'day', duplicatedImportHeader: ['day', 'value'] },
    });
  });

  it('MISSING_COMPONENT_FOR_NATURAL_KEY_COMPUTATION', () => {
    expect(
      onlyError(
        measures(`${MEASURES}OA_computedComponents:\n  key:\n    OA_withNaturalKeyComponents: [station, hour]`),
      ),
    ).toMatchObject({
      code: 'MISSING_COMPONENT_FOR_NATURAL_KEY_COMPUTATION',
      path: 'OA_data > measures > OA_computedComponents > key > OA_withNaturalKeyComponents',
      params: { missingComponents: ['hour'], knownComponents: ['station', 'day', 'value', 'key'] },
    });
  });

  it('UNKNOWN_REFERENCE_COLUMN_TO_LOOK_FOR_HEADER', () => {
    const dynamic = `${MEASURES}OA_dynamicComponents:\n  properties:\n    OA_headerPrefix: p_\n    OA_reference: stations\n    OA_referenceComponentToLookForHeader: name`;
    expect(onlyError(measures(dynamic))).toMatchObject({
      code: 'UNKNOWN_REFERENCE_COLUMN_TO_LOOK_FOR_HEADER',
      path: 'OA_data > measures > OA_dynamicComponents > properties > OA_referenceComponentToLookForHeader',
      params: { referenceName: 'stations', columnNameReference: 'name', listColumnsNameReference: ['code', 'label'] },
    });
  });

  it('MISSING_COMPONENT_FOR_DISPLAY_PATTERN', () => {
    expect(
      onlyError(measures(`${MEASURES}OA_i18nDisplayPattern:\n  OA_title:\n    en: "{station} at {hour}"`)),
    ).toMatchObject({
      code: 'MISSING_COMPONENT_FOR_DISPLAY_PATTERN',
      path: 'OA_data > measures > OA_title > en',
      params: { badGroup: 'hour', expectedComponent: ['station', 'day', 'value'] },
    });
  });
});

describe('pattern and constant components', () => {
  const PATTERN = `${MEASURES}OA_patternComponents:
  reading:
    OA_patternForComponents: "(.*)_(.*)"
    OA_componentQualifiers:
      - variable: {}
      - depth: {}
    OA_componentAdjacents:
      - quality:
          OA_importHeaderPattern: "{$1}_qc"`;

  it('accepts the pattern component of these tests', () => {
    const result = validate(measures(PATTERN));
    expect(result.ok && result.value.data[1].csv.patterns[0]).toMatchObject({
      component: 'reading',
      qualifiers: [
        { storedKey: 'reading::variable', group: 1 },
        { storedKey: 'reading::depth', group: 2 },
      ],
      adjacents: [{ storedKey: 'reading::quality', headerTemplate: '{$1}_qc' }],
    });
  });

  it('DUPLICATED_COMPONENT_HEADER_IN_PATTERN_COMPONENT', () => {
    expect(onlyError(measures(PATTERN.replace('- quality:', '- depth:')))).toMatchObject({
      code: 'DUPLICATED_COMPONENT_HEADER_IN_PATTERN_COMPONENT',
      path: 'OA_data > measures > OA_patternComponents > reading > OA_componentAdjacents > depth',
      params: {
        qualifierName: 'depth',
        data: 'measures',
        patternComponent: 'reading',
        duplicatedPathes: [
          'OA_data > measures > OA_patternComponents > reading > OA_componentQualifiers > depth',
          'OA_data > measures > OA_patternComponents > reading > OA_componentAdjacents > depth',
        ],
      },
    });
  });

  it('MISSING_IMPORT_HEADER_PATTERN', () => {
    expect(
      onlyError(measures(PATTERN.replace('OA_importHeaderPattern: "{$1}_qc"', 'OA_required: true'))),
    ).toMatchObject({
      code: 'MISSING_IMPORT_HEADER_PATTERN',
      path: 'OA_data > measures > OA_patternComponents > reading > OA_componentAdjacents > quality',
    });
  });

  it('UNKNOWN (an invalid regular expression: §18.2 has no code of its own)', () => {
    expect(onlyError(measures(PATTERN.replace('"(.*)_(.*)"', '"(.*_(.*)"')))).toMatchObject({
      code: 'UNKNOWN',
      path: 'OA_data > measures > OA_patternComponents > reading > OA_patternForComponents',
      params: {
        reason: 'invalidRegularExpression',
        pattern: '(.*_(.*)',
        message: expect.stringContaining('Unclosed group'),
      },
    });
  });

  const constant = (target: string) =>
    measures(
      `${MEASURES}OA_dataHeaderLine: 3\nOA_dataFirstLine: 5\nOA_constantComponents:\n  campaign:\n    OA_importHeaderTarget: ${target}`,
    );

  it('accepts a constant below the header named by its column', () => {
    const result = validate(constant('{OA_rowNumber: 4, OA_columnName: value}'));
    expect(result.ok && result.value.data[1].csv.constants).toEqual([
      { component: 'campaign', row: 4, zone: 'postHeader', column: { header: 'value' } },
    ]);
  });

  it('MISSING_CONSTANT_IMPORT_HEADER_ROW_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: null, OA_columnNumber: 2}'))).toMatchObject({
      code: 'MISSING_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
      path: 'OA_data > measures > OA_constantComponents > campaign > OA_importHeaderTarget > OA_rowNumber',
    });
  });

  it('NEGATIVE_CONSTANT_IMPORT_HEADER_ROW_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: 0, OA_columnNumber: 2}'))).toMatchObject({
      code: 'NEGATIVE_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
      params: { givenRowNumber: 0 },
    });
  });

  it('NEGATIVE_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: 1, OA_columnNumber: -1}'))).toMatchObject({
      code: 'NEGATIVE_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
      path: 'OA_data > measures > OA_constantComponents > campaign > OA_importHeaderTarget > OA_columnNumber',
    });
  });

  it('BAD_CONSTANT_IMPORT_HEADER_ROW_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: 5, OA_columnNumber: 2}'))).toMatchObject({
      code: 'BAD_CONSTANT_IMPORT_HEADER_ROW_NUMBER',
      path: 'OA_data > measures > OA_constantComponents > campaign > OA_importHeaderTarget > OA_rowNumber',
      params: { givenRowNumber: 5, firstRowLine: 5 },
    });
  });

  it('MISSING_ANY_MANDATORIES_SECTIONS for a cell without a column', () => {
    expect(onlyError(constant('{OA_rowNumber: 1}'))).toMatchObject({
      code: 'MISSING_ANY_MANDATORIES_SECTIONS',
      params: { anyMandatorySections: ['OA_columnName', 'OA_columnNumber'] },
    });
  });

  it('MISSING_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: 1, OA_columnName: value}'))).toMatchObject({
      code: 'MISSING_CONSTANT_IMPORT_HEADER_COLUMN_NUMBER',
      params: { givenRowNumber: 1, headerLine: 3, columnName: 'value' },
    });
  });

  it('MISSING_CONSTANT_IMPORT_HEADER_COLUMN_OR_ROW_NUMBER', () => {
    expect(onlyError(constant('{OA_rowNumber: 1, OA_columnNumber: null}'))).toMatchObject({
      code: 'MISSING_CONSTANT_IMPORT_HEADER_COLUMN_OR_ROW_NUMBER',
      path: 'OA_data > measures > OA_constantComponents > campaign > OA_importHeaderTarget',
    });
  });
});

describe('checkers', () => {
  const withChecker = (checker: string) =>
    measures(MEASURES.replace('    OA_checker: {OA_name: OA_float}', `    OA_checker: ${checker}`));

  it('MISSING_CHECKER_NAME', () => {
    expect(onlyError(withChecker('{OA_params: {}}'))).toMatchObject({
      code: 'MISSING_CHECKER_NAME',
      path: 'OA_data > measures > OA_basicComponents > value',
      params: {
        acceptedCheckerNames: [
          'OA_reference',
          'OA_boolean',
          'OA_date',
          'OA_integer',
          'OA_float',
          'OA_string',
          'OA_groovyExpression',
        ],
      },
    });
  });

  it('UNKNOWN_CHECKER_NAME', () => {
    expect(onlyError(withChecker('{OA_name: Float}'))).toMatchObject({
      code: 'UNKNOWN_CHECKER_NAME',
      path: 'OA_data > measures > OA_basicComponents > value',
      params: { checkerName: 'Float' },
    });
  });

  it('MISSING_REFERENCE_NAME', () => {
    expect(onlyError(withChecker('{OA_name: OA_reference, OA_params: {OA_reference: {OA_name: ""}}}'))).toMatchObject({
      code: 'MISSING_REFERENCE_NAME',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_reference > OA_name',
      params: { allDataNames: ['stations', 'measures'] },
    });
  });

  it('UNKNOWN_REFERENCE_NAME', () => {
    expect(
      onlyError(withChecker('{OA_name: OA_reference, OA_params: {OA_reference: {OA_name: station}}}')),
    ).toMatchObject({
      code: 'UNKNOWN_REFERENCE_NAME',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_reference > OA_name',
      params: { referenceName: 'station', allDataNames: ['stations', 'measures'] },
    });
  });

  it('MISSING_PATTERN_FOR_CHECKER_DATE', () => {
    expect(onlyError(withChecker('{OA_name: OA_date, OA_params: {OA_duration: 1 day}}'))).toMatchObject({
      code: 'MISSING_PATTERN_FOR_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params',
    });
  });

  it('INVALID_PATTERN_FOR_CHECKER_DATE', () => {
    expect(onlyError(withChecker('{OA_name: OA_date, OA_params: {OA_pattern: bb/MM/yyyy}}'))).toMatchObject({
      code: 'INVALID_PATTERN_FOR_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_pattern',
      params: { badPattern: 'bb/MM/yyyy', message: 'Unknown pattern letter: b' },
    });
  });

  it('INVALID_PATTERN_FOR_CHECKER_DATE: a time field without its larger unit, as the original refuses it', () => {
    expect(onlyError(withChecker('{OA_name: OA_date, OA_params: {OA_pattern: yyyy-Mm-dd}}'))).toMatchObject({
      code: 'INVALID_PATTERN_FOR_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_pattern',
      params: { badPattern: 'yyyy-Mm-dd', index: 6, message: expect.stringContaining('Minutes (m) without an hour') },
    });
    expect(onlyError(withChecker("{OA_name: OA_date, OA_params: {OA_pattern: 'HH:ss'}}"))).toMatchObject({
      params: { message: expect.stringContaining('Seconds (s) without minutes') },
    });
    for (const accepted of ['dd/MM/yyyy', 'MM/yyyy', 'HH:mm', 'hh:mm a', "yyyy-MM-dd'T'HH:mm:ss.SSS", "'m' yyyy"])
      expect(validate(withChecker(`{OA_name: OA_date, OA_params: {OA_pattern: "${accepted}"}}`)).ok, accepted).toBe(
        true,
      );
  });

  it('INVALID_PATTERN_FOR_CHECKER_DATE: a pattern longer than any real one, or a year wider than Java’s', () => {
    const years = 'y'.repeat(100_000);
    expect(onlyError(withChecker(`{OA_name: OA_date, OA_params: {OA_pattern: ${years}}}`))).toMatchObject({
      code: 'INVALID_PATTERN_FOR_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_pattern',
      params: { reason: 'tooLong', length: 100_000, maxLength: MAX_DATE_PATTERN_LENGTH },
    });
    expect(onlyError(withChecker(`{OA_name: OA_date, OA_params: {OA_pattern: ${'y'.repeat(20)}}}`))).toMatchObject({
      code: 'INVALID_PATTERN_FOR_CHECKER_DATE',
      params: { message: 'Too many pattern letters: y' },
    });
  });

  it('INVALID_MIN_MAX_FOR_CHECKER_DATE', () => {
    expect(
      onlyError(
        withChecker('{OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_min: 12/31/1980, OA_max: 31/12/2024}}'),
      ),
    ).toMatchObject({
      code: 'INVALID_MIN_MAX_FOR_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params',
      params: { declaredMinValue: '12/31/1980', declaredMaxValue: '31/12/2024', declaredPattern: 'dd/MM/yyyy' },
    });
    // A bound on a day that does not exist is refused, not moved to the end of the month.
    expect(
      onlyError(
        withChecker('{OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_min: 01/01/1980, OA_max: 31/02/2024}}'),
      ),
    ).toMatchObject({
      code: 'INVALID_MIN_MAX_FOR_CHECKER_DATE',
      params: { declaredMinValue: '01/01/1980', declaredMaxValue: '31/02/2024', declaredPattern: 'dd/MM/yyyy' },
    });
  });

  it('INVALID_DURATION_CHECKER_DATE', () => {
    expect(
      onlyError(withChecker('{OA_name: OA_date, OA_params: {OA_pattern: MM/yyyy, OA_duration: 1 moon}}')),
    ).toMatchObject({
      code: 'INVALID_DURATION_CHECKER_DATE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params',
      params: { declaredDuration: '1 moon' },
    });
  });

  it('INVALID_DURATION_CHECKER_DATE: a span past the bound, or a text longer than any real one', () => {
    const durationPath = 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_duration';
    const withDuration = (duration: string) =>
      withChecker(`{OA_name: OA_date, OA_params: {OA_pattern: MM/yyyy, OA_duration: "${duration}"}}`);
    expect(onlyError(withDuration('100000000000000 days'))).toMatchObject({
      code: 'INVALID_DURATION_CHECKER_DATE',
      path: durationPath,
      params: { declaredDuration: '100000000000000 days', reason: 'spanTooLong', maxYears: DURATION_LIMITS.maxYears },
    });
    expect(onlyError(withDuration(`${'9'.repeat(400)} seconds`)).params).toMatchObject({ reason: 'textTooLong' });
    const repeated = Array.from({ length: 30 }, () => '0 days').join(' ');
    expect(onlyError(withDuration(repeated))).toMatchObject({
      path: durationPath,
      params: { reason: 'textTooLong', length: repeated.length, maxLength: DURATION_LIMITS.maxLength },
    });
    for (const accepted of [
      `${DURATION_LIMITS.maxYears} years`,
      `${DURATION_LIMITS.maxYears * 12} months`,
      '1 day 12 hours',
    ])
      expect(validate(withDuration(accepted)).ok, accepted).toBe(true);
  });

  it('BAD_FLOAT_REQUIRED_SECTIONS', () => {
    expect(onlyError(withChecker('{OA_name: OA_float, OA_params: {OA_min: low}}'))).toMatchObject({
      code: 'BAD_FLOAT_REQUIRED_SECTIONS',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_min',
      params: { givenValue: 'low' },
    });
  });

  it('BAD_ENUM_SECTION_TYPE', () => {
    expect(onlyError(withChecker('{OA_name: OA_float, OA_params: {OA_multiplicity: SEVERAL}}'))).toMatchObject({
      code: 'BAD_ENUM_SECTION_TYPE',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_multiplicity',
      params: { givenValue: 'SEVERAL', acceptedValues: ['ONE', 'MANY'] },
    });
  });

  it('BAD_GROOVY_EXPRESSION, with the compiler message and its position in the expression', () => {
    const error = onlyError(
      withChecker('{OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return (datum.value"}}}'),
    );
    expect(error).toMatchObject({
      code: 'BAD_GROOVY_EXPRESSION',
      path: 'OA_data > measures > OA_basicComponents > value > OA_checker > OA_params > OA_groovy > OA_expression',
      params: { expression: 'return (datum.value', expressionLine: 1 },
      line: 24,
    });
    expect(error.params.message).toEqual(expect.any(String));
  });

  it('UNKNOWN_REFERENCE_NAME for references.X of an expression', () => {
    expect(
      onlyError(
        measures(
          `${MEASURES}OA_computedComponents:\n  label:\n    OA_computation: {OA_expression: "references.station.size()"}`,
        ),
      ),
    ).toMatchObject({
      code: 'UNKNOWN_REFERENCE_NAME',
      path: 'OA_data > measures > OA_computedComponents > label > OA_computation > OA_expression',
      params: { referenceName: 'station' },
    });
  });

  it('UNKNOWN_REFERENCE_NAME in OA_references of an expression', () => {
    expect(
      onlyError(
        measures(
          `${MEASURES}OA_computedComponents:\n  label:\n    OA_computation: {OA_expression: "'x'", OA_references: [station]}`,
        ),
      ),
    ).toMatchObject({
      code: 'UNKNOWN_REFERENCE_NAME',
      path: 'OA_data > measures > OA_computedComponents > label > OA_computation > OA_references',
      params: { referenceName: 'station' },
    });
  });
});

describe('line validations', () => {
  const validation = (body: string) =>
    measures(`${MEASURES}OA_validations:\n  positive:\n${body.replace(/^/gm, '    ')}`);

  it('MISSING_COLUMN_NAME_VALIDATION', () => {
    expect(onlyError(validation('OA_checker: {OA_name: OA_float}'))).toMatchObject({
      code: 'MISSING_COLUMN_NAME_VALIDATION',
      path: 'OA_data > measures > OA_validations > positive',
    });
  });

  it('MISSING_COMPONENT_FOR_COMPONENT_NAME', () => {
    expect(onlyError(validation('OA_checker: {OA_name: OA_float}\nOA_components: []'))).toMatchObject({
      code: 'MISSING_COMPONENT_FOR_COMPONENT_NAME',
      path: 'OA_data > measures > OA_validations > positive > OA_components',
      params: { knownComponents: ['station', 'day', 'value'] },
    });
  });

  it('UNKNOWN_COMPONENT_FOR_COMPONENT_NAME', () => {
    expect(onlyError(validation('OA_checker: {OA_name: OA_float}\nOA_components: [values]'))).toMatchObject({
      code: 'UNKNOWN_COMPONENT_FOR_COMPONENT_NAME',
      path: 'OA_data > measures > OA_validations > positive > OA_components',
      params: { unknownComponent: 'values', knownComponents: ['station', 'day', 'value'] },
    });
  });

  it('accepts an expression rule without components', () => {
    expect(
      validate(
        validation(
          'OA_checker: {OA_name: OA_groovyExpression, OA_params: {OA_groovy: {OA_expression: "return true"}}}',
        ),
      ).ok,
    ).toBe(true);
  });
});

describe('authorizations', () => {
  const authorizations = (body: string) => measures(`${MEASURES}OA_authorizations:\n${body.replace(/^/gm, '  ')}`);

  it('accepts reference scopes and a date time scope', () => {
    const result = validate(authorizations('OA_authorizationScope: [station]\nOA_timeScope: day'));
    expect(result.ok && result.value.data[1].authorization).toEqual({
      scopes: [{ component: 'station', reference: 'stations' }],
      timeScope: { component: 'day', pattern: 'dd/MM/yyyy', duration: null },
    });
  });

  it('INVALID_COMPONENT_REFERENCE_FOR_AUTHORIZATION_SCOPE_COMPONENT_NAME', () => {
    expect(onlyError(authorizations('OA_authorizationScope: [value]'))).toMatchObject({
      code: 'INVALID_COMPONENT_REFERENCE_FOR_AUTHORIZATION_SCOPE_COMPONENT_NAME',
      path: 'OA_data > measures > OA_authorizations > OA_authorizationScope',
      params: { component: 'value', referenceComponents: ['station'] },
    });
  });

  it('INVALID_COMPONENT_DATE_FOR_TIMESCOPE_COMPONENT_NAME', () => {
    expect(onlyError(authorizations('OA_timeScope: value'))).toMatchObject({
      code: 'INVALID_COMPONENT_DATE_FOR_TIMESCOPE_COMPONENT_NAME',
      path: 'OA_data > measures > OA_authorizations > OA_timeScope',
      params: { component: 'value', dateComponents: ['day'] },
    });
  });
});

describe('submission', () => {
  const SCOPE = `OA_submission:
  OA_strategy: OA_VERSIONING
  OA_submissionScope:
    OA_referenceScopes:
      - OA_reference: stations
        OA_component: station
    OA_timeScope:
      OA_component: day
  OA_fileName:
    OA_filePattern: "(.*)_(.*)_(.*).csv"
    OA_matchPatternScopes: [station, __START_DATE__, __END_DATE__]`;
  const submission = (text: string) => measures(`${MEASURES}${text}`);

  it('accepts a versioned submission with reference and time scopes and file-name parsing', () => {
    const result = validate(submission(SCOPE));
    expect(result.ok && result.value.data[1].submission).toMatchObject({
      strategy: 'OA_VERSIONING',
      referenceScopes: [{ reference: 'stations', component: 'station' }],
      timeScope: { component: 'day', pattern: 'dd/MM/yyyy' },
      fileName: { matchPatternScopes: ['station', '__START_DATE__', '__END_DATE__'], pattern: { groupCount: 3 } },
    });
  });

  it('UNEXPECTED_SUBMISSION', () => {
    expect(onlyError(submission(SCOPE).replace('OA_tags: [__DATA__]', 'OA_tags: [__REFERENCE__]'))).toMatchObject({
      code: 'UNEXPECTED_SUBMISSION',
      path: 'OA_data > measures',
    });
  });

  it('MISSING_REQUIRED_ENUM_VALUE', () => {
    expect(onlyError(submission(SCOPE.replace('OA_strategy: OA_VERSIONING', 'OA_strategy: ""')))).toMatchObject({
      code: 'MISSING_REQUIRED_ENUM_VALUE',
      path: 'OA_data > measures > OA_submission > OA_strategy',
      params: { acceptedValues: ['OA_INSERTION', 'OA_VERSIONING'] },
    });
  });

  it('UNKNOWN_STRATEGY_SUBMISSION', () => {
    expect(
      onlyError(submission(SCOPE.replace('OA_strategy: OA_VERSIONING', 'OA_strategy: [OA_VERSIONING]'))),
    ).toMatchObject({
      code: 'UNKNOWN_STRATEGY_SUBMISSION',
      path: 'OA_data > measures > OA_submission > OA_strategy',
      params: { allStrategy: ['OA_INSERTION', 'OA_VERSIONING'] },
    });
  });

  it('MISSING_REFERENCE_AND_COMPONENT_NAME', () => {
    expect(
      onlyError(
        submission(
          SCOPE.replace(
            'OA_reference: stations\n        OA_component: station',
            'OA_reference: ""\n        OA_component: ""',
          ),
        ),
      ),
    ).toMatchObject({
      code: 'MISSING_REFERENCE_AND_COMPONENT_NAME',
      path: 'OA_data > measures > OA_submission > OA_submissionScope > OA_referenceScopes > 2',
      params: { allDataNames: ['stations', 'measures'], knownComponents: ['station'] },
    });
  });

  it('INVALID_COMPONENT_REFERENCE_FOR_SUBMISSION_SCOPE_REFERENCE (the index of the first scope is 2, as in the original)', () => {
    expect(onlyError(submission(SCOPE.replace('OA_reference: stations', 'OA_reference: measures')))).toMatchObject({
      code: 'INVALID_COMPONENT_REFERENCE_FOR_SUBMISSION_SCOPE_REFERENCE',
      path: 'OA_data > measures > OA_submission > OA_submissionScope > OA_referenceScopes > 2',
      params: { submissionReference: 'stations', componentReference: 'measures' },
    });
  });

  it('MISSING_COMPONENT_FOR_TIMESCOPE_SUBMISSION', () => {
    expect(onlyError(submission(SCOPE.replace('OA_component: day', 'OA_component: ""')))).toMatchObject({
      code: 'MISSING_COMPONENT_FOR_TIMESCOPE_SUBMISSION',
      path: 'OA_data > measures > OA_submission > OA_submissionScope > OA_timeScope',
      params: { knownComponents: ['day'] },
    });
  });

  it('UNKNOWN_NAME_REFERENCE_SCOPE (path without the entry, as in the original)', () => {
    expect(onlyError(submission(SCOPE.replace('[station, __START', '[site, __START')))).toMatchObject({
      code: 'UNKNOWN_NAME_REFERENCE_SCOPE',
      path: 'OA_submission > OA_fileName > OA_referenceScopes > site',
      params: { unknownAuthorizationScope: 'site', knownAuthorizationScope: ['station'] },
    });
  });
});

describe('dependencies between entries', () => {
  const loop = (flag: string) =>
    configuration(`  first:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      second: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: second${flag}}}}}
  second:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      first: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: first${flag}}}}}
`);

  it('DUPLICATED_REFERENCE_IN_DEPENDENCIES', () => {
    expect(onlyError(loop(''))).toMatchObject({
      code: 'DUPLICATED_REFERENCE_IN_DEPENDENCIES',
      path: 'OA_data',
      params: { cycle: ['first', 'second', 'first'] },
    });
  });

  it('DUPLICATED_REFERENCE_IN_HIERARCHIC_DEPENDENCIES', () => {
    expect(onlyError(loop(', OA_isParent: true'))).toMatchObject({
      code: 'DUPLICATED_REFERENCE_IN_HIERARCHIC_DEPENDENCIES',
      params: { cycle: ['first', 'second', 'first'] },
    });
  });
});

describe('a configuration of too many entries', () => {
  it('TOO_MANY_DATA_ENTRIES', () => {
    const entries = Array.from(
      { length: 1_001 },
      (_, i) => `  e${i}:\n    OA_naturalKey: [code]\n    OA_basicComponents: {code: null}\n`,
    );
    const text = `OA_version: 2.0.1\nOA_application: {OA_name: many, OA_version: 1.0.0}\nOA_data:\n${entries.join('')}`;
    expect(onlyError(text)).toMatchObject({
      code: 'TOO_MANY_DATA_ENTRIES',
      path: 'OA_data',
      params: { count: 1_001, max: 1_000 },
    });
  });
});

describe('a value of megabytes where it does not belong', () => {
  it('is repeated bounded by its error', () => {
    const big = 'x'.repeat(1_000_000);
    const result = validate(`OA_version: 2.0.1
OA_application: {OA_name: a, OA_version: 1.0.0}
OA_data:
  e:
    OA_naturalKey: [code]
    OA_basicComponents: {code: {OA_checker: {OA_name: ${big}}}}
`);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result.ok ? [] : result.errors).length).toBeLessThan(5_000);
  });
});

describe('the code list', () => {
  it('holds the §18.2 codes once each, with their §18.1 message keys', () => {
    expect(new Set(CONFIGURATION_ERROR_CODES).size).toBe(CONFIGURATION_ERROR_CODES.length);
    expect(configurationMessageKey('MISSING_OA_APPLICATION')).toBe('missingOaApplication');
    expect(configurationMessageKey('UNSUPPORTED_OPENADOM_VERSION')).toBe('unsupportedOpenadomVersion');
    expect(configurationMessageKey('invalidHeaders')).toBe('invalidheaders');
  });
});
