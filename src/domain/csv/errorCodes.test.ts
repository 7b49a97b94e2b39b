/**
 * One test per upload error code: a small file against the test configuration (`testKit.ts`), asserting the code,
 * the line and the params.
 */
import { describe, expect, it } from 'vitest';
import { CSV_ERROR_CODES, type CsvError } from './errors';
import { modelOf, references, validate, type Validated } from './testKit';

const refs = references();
const STATIONS_HEADER = 'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity';
const station = (cells: Partial<Record<string, string>>) => {
  const defaults: Record<string, string> = {
    zone: 'Nord',
    code: 'S1',
    opened: '01/02/2003',
    depth: '12.5',
    slots: '3',
    automatic: 'false',
    serial: 'AB123',
    tags: '',
    neighbours: '',
    remark: '',
    p_ph: '',
    p_conductivity: '',
  };
  return STATIONS_HEADER.split(';')
    .map((header) => cells[header] ?? defaults[header])
    .join(';');
};
const stations = (...lines: string[]) =>
  validate('stations', `${STATIONS_HEADER}\n${lines.join('\n')}\n`, { references: refs });
const READINGS_TOP = 'campagne;C2024\n\nstation;day;level;quality;T_10;Q_10\nunits;;cm\n';
const readings = (lines: string[], options: Parameters<typeof validate>[2] = {}) =>
  validate('readings', READINGS_TOP + lines.join('\n') + '\n', { references: refs, ...options });

/** The only error of a result, checked. */
function only(result: Validated): CsvError {
  expect(result.report.errors, JSON.stringify(result.report.errors)).toHaveLength(1);
  expect(result.report.errorCount).toBe(1);
  return result.report.errors[0];
}

const tested = new Set<string>();
function errorCode(code: string, body: () => void): void {
  tested.add(code);
  it(code, body);
}

describe('upload error codes', () => {
  errorCode('missingHeaderLine', () => {
    const error = only(validate('readings', 'campagne;C2024\n'));
    expect(error).toEqual({ lineNumber: -1, code: 'missingHeaderLine', params: { headerLine: 3 } });
  });

  errorCode('emptyHeader', () => {
    const error = only(validate('properties', 'name;;unit\nph;;\n'));
    expect(error).toEqual({ lineNumber: 1, code: 'emptyHeader', params: { headerLine: 1, columnNumber: 2 } });
  });

  errorCode('duplicatedHeaders', () => {
    const error = only(validate('properties', 'name;unit;unit\nph;;\n'));
    expect(error).toEqual({ lineNumber: 1, code: 'duplicatedHeaders', params: { duplicatedHeaders: ['unit'] } });
  });

  errorCode('invalidHeaders', () => {
    const error = only(validate('properties', 'name;unit;colour\nph;;\n'));
    expect(error).toEqual({
      lineNumber: 1,
      code: 'invalidHeaders',
      params: {
        expectedColumns: ['name', 'unit'],
        actualColumns: ['name', 'unit', 'colour'],
        missingComponents: [],
        unknownComponents: ['colour'],
      },
    });
    // A header of 50,000 long unknown cells (a file whose lines were all read as one): named bounded.
    const cells = Array.from({ length: 50_000 }, (_, i) => `p${i}${'u'.repeat(150)}`).join(';');
    const wide = validate('properties', `name;unit;${cells}\nph;\n`);
    const named = wide.report.errors.find((e) => e.code === 'invalidHeaders')!.params;
    expect(named.unknownComponents).toHaveLength(51);
    expect((named.unknownComponents as string[]).at(-1)).toBe('…');
    expect(JSON.stringify(wide.report).length).toBeLessThan(50_000);
  });

  errorCode('missingMandatoryColumns', () => {
    // Natural-key columns are mandatory.
    const error = only(validate('properties', 'unit\ncm\n'));
    expect(error).toEqual({
      lineNumber: 1,
      code: 'missingMandatoryColumns',
      params: { missingMandatoryColumns: ['name'] },
    });
  });

  errorCode('unexpectedHeaderColumn', () => {
    const error = only(validate('readings', 'campagne;C2024\n\nstation;day;T_10;level;quality\n\nS1;01/03/2024;1;;\n'));
    expect(error).toEqual({
      lineNumber: 3,
      code: 'unexpectedHeaderColumn',
      params: {
        component: 'temperature::flag',
        expectedHeaderColumn: 'Q_10',
        actualHeaderColumn: 'level',
        columnNumber: 4,
      },
    });
  });

  errorCode('headerColumnPatternNotMatching', () => {
    const error = only(validate('stations', `zone;code;p_ph;p_salinity\nNord;S1;7;\n`, { references: refs }));
    expect(error).toEqual({
      lineNumber: 1,
      code: 'headerColumnPatternNotMatching',
      params: {
        component: 'measured',
        headerPrefix: 'p_',
        refType: 'properties',
        actualHeaderColumn: 'p_salinity',
        columnNumber: 4,
      },
    });
  });

  errorCode('invalidFormat', () => {
    const unterminated = only(validate('properties', 'name;unit\nph;"cm\n'));
    expect(unterminated).toEqual({
      lineNumber: 2,
      code: 'invalidFormat',
      params: { reason: 'unterminatedQuote', columnNumber: 2 },
      column: 'unit',
    });
    const after = only(validate('properties', 'name;unit\n"ph"x;cm\n'));
    expect(after).toEqual({
      lineNumber: 2,
      code: 'invalidFormat',
      params: { reason: 'textAfterQuote', columnNumber: 1 },
      column: 'name',
    });
    // A spreadsheet's "Unicode text", little and big endian, read as the workers read files (UTF-8): one error for
    // the file, none for its columns.
    for (const littleEndian of [true, false]) {
      const text = '\uFEFFname;unit\r\nph;cm\r\n';
      const bytes = new Uint8Array(text.length * 2);
      for (let i = 0; i < text.length; i++)
        new DataView(bytes.buffer).setUint16(i * 2, text.charCodeAt(i), littleEndian);
      const utf16 = validate('properties', new TextDecoder('utf-8').decode(bytes));
      expect(utf16.report.errors).toEqual([{ lineNumber: -1, code: 'invalidFormat', params: { reason: 'utf16' } }]);
      expect(utf16.rows).toEqual([]);
    }
  });

  errorCode('separatorInValue', () => {
    const error = only(validate('properties', 'name;unit\nph;"m;s"\n'));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'separatorInValue',
      params: { columnNumber: 2, separator: ';' },
      column: 'unit',
      value: 'm;s',
    });
  });

  errorCode('unexpectedTokenCount', () => {
    const result = validate('properties', 'name;unit\nph;;\nconductivity;µS/cm;extra\n');
    expect(only(result)).toEqual({
      lineNumber: 3,
      code: 'unexpectedTokenCount',
      params: { expectedTokenCount: 2, actualTokenCount: 3 },
    });
    // Empty trailing cells and short lines are accepted, as in the original.
    expect(validate('properties', 'name;unit\nph;;;\nconductivity\n').report.errorCount).toBe(0);
  });

  errorCode('requiredValueWithComponent', () => {
    const error = only(stations(station({ zone: '' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'requiredValueWithComponent',
      params: { component: 'zone' },
      column: 'zone',
      value: '',
    });
  });

  errorCode('invalidDateWithComponent', () => {
    const error = only(stations(station({ opened: '31-12-2003' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'invalidDateWithComponent',
      params: { component: 'opened', value: '31-12-2003', pattern: 'dd/MM/yyyy' },
      column: 'opened',
      value: '31-12-2003',
    });
    // A day that does not exist is refused the same way, never stored as another day.
    const impossible = only(stations(station({ opened: '29/02/2003' })));
    expect(impossible).toEqual({
      lineNumber: 2,
      code: 'invalidDateWithComponent',
      params: { component: 'opened', value: '29/02/2003', pattern: 'dd/MM/yyyy' },
      column: 'opened',
      value: '29/02/2003',
    });
  });

  errorCode('badIntervalDateWithComponent', () => {
    const error = only(stations(station({ opened: '31/12/1949' })));
    expect(error.code).toBe('badIntervalDateWithComponent');
    expect(error.params).toEqual({
      component: 'opened',
      value: '31/12/1949',
      pattern: 'dd/MM/yyyy',
      type: 'LOWER_THAN_MIN',
      bound: '01/01/1950',
    });
  });

  errorCode('invalidIntegerWithComponent', () => {
    const error = only(stations(station({ slots: '3.5' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'invalidIntegerWithComponent',
      params: { component: 'slots', value: '3.5' },
      column: 'slots',
      value: '3.5',
    });
  });

  errorCode('badIntervalIntegerWithComponent', () => {
    const error = only(stations(station({ slots: '11' })));
    expect(error.params).toEqual({ component: 'slots', value: '11', type: 'HIGHER_THAN_MAX', bound: 10 });
    expect(only(stations(station({ slots: '0' }))).params).toEqual({
      component: 'slots',
      value: '0',
      type: 'LOWER_THAN_MIN',
      bound: 1,
    });
  });

  errorCode('invalidFloatWithComponent', () => {
    const error = only(stations(station({ depth: '12,5,1' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'invalidFloatWithComponent',
      params: { component: 'depth', value: '12,5,1' },
      column: 'depth',
      value: '12,5,1',
    });
  });

  errorCode('floatPrecisionLost', () => {
    const error = only(stations(station({ depth: '3.14159265358979323846' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'floatPrecisionLost',
      params: { component: 'depth', value: '3.14159265358979323846', stored: '3.141592653589793' },
      column: 'depth',
      value: '3.14159265358979323846',
    });
  });

  errorCode('badIntervalFloatWithComponent', () => {
    const error = only(stations(station({ depth: '100.5' })));
    expect(error.params).toEqual({ component: 'depth', value: '100.5', type: 'HIGHER_THAN_MAX', bound: 100 });
  });

  errorCode('invalidBooleanWithComponent', () => {
    const error = only(stations(station({ automatic: 'oui' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'invalidBooleanWithComponent',
      params: { component: 'automatic', value: 'oui' },
      column: 'automatic',
      value: 'oui',
    });
  });

  errorCode('patternNotMatchedWithComponent', () => {
    const error = only(stations(station({ serial: 'ab123' })));
    expect(error.params).toEqual({ component: 'serial', value: 'ab123', pattern: '[A-Z]{2}[0-9]{3}' });
  });

  errorCode('invalidReferenceWithComponent', () => {
    const error = only(stations(station({ zone: 'Ouest' })));
    expect(error).toEqual({
      lineNumber: 2,
      code: 'invalidReferenceWithComponent',
      params: {
        component: 'zone',
        value: 'Ouest',
        refType: 'zones',
        referenceValues: ['nord', 'lac_bleu', 'rive', 'sud'],
      },
      column: 'zone',
      value: 'Ouest',
    });
    // With MANY, the element that is not found.
    expect(only(stations(station({ neighbours: 'Nord,Est' }))).params).toMatchObject({
      component: 'neighbours',
      value: 'Est',
    });
  });

  errorCode('checkerExpressionReturnedFalse', () => {
    const checker = only(readings(['S1;01/03/2024;2;bad;1;ok']));
    expect(checker).toMatchObject({
      lineNumber: 5,
      code: 'checkerExpressionReturnedFalse',
      params: { component: 'quality' },
      column: 'quality',
      value: 'bad',
    });
    const rule = only(readings(['S1;01/03/2024;12;good;1;ok']));
    expect(rule).toMatchObject({
      lineNumber: 5,
      code: 'checkerExpressionReturnedFalse',
      params: { component: 'level', validation: 'levelBelowTen', expression: 'return datum.level.toInteger() < 10' },
    });
  });

  errorCode('expressionEvaluationError', () => {
    const error = only(readings(['S0;01/03/2024;2;good;1;ok']));
    expect(error).toEqual({
      lineNumber: 5,
      code: 'expressionEvaluationError',
      params: {
        component: 'ratio',
        expression: "return datum.level.toInteger() / (datum.station == 'S0' ? 0 : 2)",
        errorCode: 'divisionByZero',
        message: 'Division by zero.',
        expressionLine: 1,
        expressionColumn: 32,
      },
    });
  });

  errorCode('groovyException', () => {
    const error = only(readings(['S1;01/03/2024;2;XX;1;ok']));
    expect(error).toEqual({
      lineNumber: 5,
      code: 'groovyException',
      params: {
        component: 'quality',
        exception: 'BAD_QUALITY',
        messages: { fr: 'Qualité interdite', en: 'Forbidden quality' },
        exceptionParams: { quality: 'XX' },
      },
      column: 'quality',
      value: 'XX',
    });
  });

  errorCode('invalidNaturalKey', () => {
    const empty = only(validate('properties', 'name;unit\n;cm\n'));
    expect(empty).toEqual({
      lineNumber: 2,
      code: 'invalidNaturalKey',
      params: { components: ['name'], value: '', problem: 'empty' },
    });
    const long = only(validate('properties', `name;unit\n${'x'.repeat(300)};cm\n`));
    expect(long.params).toMatchObject({ problem: 'tooLong' });
    // A value of hundreds of thousands of characters is repeated cut: a report holds up to a thousand errors.
    const echoed = only(validate('properties', `name;unit\n${'p'.repeat(400_000)}\u200b;cm\n`));
    expect(String(echoed.params.value)).toHaveLength(301);
    // A zero-width space, a soft hyphen, a byte order mark pasted in: a row that would look like "ph" and not be it.
    for (const [text, character] of [
      ['ph\u200b', 'U+200B'],
      ['p\u00adh', 'U+00AD'],
      ['\ufeffph', 'U+FEFF'],
    ]) {
      const invisible = validate('properties', `name;unit\nph;cm\n${text};mm\n`);
      expect(invisible.report.errors, character).toEqual([
        {
          lineNumber: 3,
          code: 'invalidNaturalKey',
          params: { components: ['name'], value: text, problem: 'invisible', character },
        },
      ]);
    }
    // Every part within its limit, the whole key (its parts joined) longer than the database can index.
    const parts = Array.from({ length: 10 }, (_, i) => `k${i}`);
    const wide = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: wide, OA_version: 1.0.0}
OA_data:
  samples:
    OA_naturalKey: [${parts.join(', ')}]
    OA_basicComponents: {${parts.map((part) => `${part}: null`).join(', ')}}
`);
    const widest = validate(
      'samples',
      `${parts.join(';')}\n${parts.map(() => 'x'.repeat(250)).join(';')}\nshort;${parts.slice(1).join(';')}\n`,
      {
        model: wide,
      },
    );
    expect(widest.report.errors).toHaveLength(1);
    expect(widest.report.errors[0]).toMatchObject({
      lineNumber: 2,
      code: 'invalidNaturalKey',
      params: { problem: 'pathTooLong', max: 2_000 },
    });
    expect(widest.rows.map((row) => row.naturalKey)).toEqual(['short__k1__k2__k3__k4__k5__k6__k7__k8__k9']);
    expect(only(validate('properties', 'name;unit\n---;cm\n')).params).toEqual({
      components: ['name'],
      value: '---',
      problem: 'empty',
    });
  });

  errorCode('duplicatedLineInReference', () => {
    const result = validate('properties', 'name;unit\nph;\nPH;x\nconductivity;\npH;y\n');
    expect(result.report.errors).toEqual([
      {
        lineNumber: 3,
        code: 'duplicatedLineInReference',
        params: {
          file: 'properties',
          lineNumber: 3,
          otherLines: [2, 3, 5],
          lineCount: 3,
          duplicateKey: 'propertiesKph',
        },
      },
      {
        lineNumber: 5,
        code: 'duplicatedLineInReference',
        params: {
          file: 'properties',
          lineNumber: 5,
          otherLines: [2, 3, 5],
          lineCount: 3,
          duplicateKey: 'propertiesKph',
        },
      },
    ]);
    // A key filled down a whole column: each line's error lists the first lines and counts them all, so the report
    // grows with the lines, not with their square.
    const filledDown = validate(
      'properties',
      `name;unit\n${Array.from({ length: 20_000 }, (_, i) => `same;u${i}`).join('\n')}\n`,
    );
    expect(filledDown.report.errorCount).toBe(19_999);
    expect(filledDown.report.errors[0].params).toEqual({
      file: 'properties',
      lineNumber: 3,
      otherLines: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, '…'],
      lineCount: 20_000,
      duplicateKey: 'propertiesKsame',
    });
    // Rows whose natural keys hold their parent differ under different parents.
    expect(stations(station({ zone: 'Nord' }), station({ zone: 'Sud' })).report.errorCount).toBe(0);
    // A natural key without its parent given again under another parent is a duplicate (configuration-format.md
    // §9.1): rows are stored by natural key. No repeated line is given to be stored, and the file is refused.
    const plots = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: plots, OA_version: 1.0.0}
OA_data:
  zones:
    OA_naturalKey: [code]
    OA_basicComponents: {code: null}
  plots:
    OA_naturalKey: [code]
    OA_basicComponents:
      zone: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isParent: true}}}}
      code: null
`);
    const zones = validate('zones', 'code\nNord\nSud\n', { model: plots });
    const underParents = validate('plots', 'zone;code\nNord;p1\nSud;p1\nSud;p1\nNord;p2\n', {
      model: plots,
      references: {
        zones: zones.rows.map(({ naturalKey, hierarchicalKey, values }) => ({ naturalKey, hierarchicalKey, values })),
      },
    });
    expect(underParents.report.errors).toEqual([
      {
        lineNumber: 3,
        code: 'duplicatedLineInReference',
        params: { file: 'plots', lineNumber: 3, otherLines: [2, 3], lineCount: 2, duplicateKey: 'p1' },
      },
      {
        lineNumber: 4,
        code: 'duplicatedLineInReference',
        params: { file: 'plots', lineNumber: 4, otherLines: [3, 4], lineCount: 2, duplicateKey: 'zonesKsud.plotsKp1' },
      },
    ]);
    expect(underParents.rows.map((row) => row.lineNumber)).toEqual([2, 5]);
  });

  errorCode('duplicatedLineInDatatype', () => {
    // The original reports duplicatedLineInReference for data types too (corpus: recursivite's condition_prelevements):
    // Terrain does the same, so this code is in the catalogue for the original's reports but never produced.
    const result = readings(['S1;01/03/2024;2;good;1;ok', 'S1;01/03/2024;3;good;1;ok']);
    expect(only(result)).toEqual({
      lineNumber: 6,
      code: 'duplicatedLineInReference',
      params: {
        file: 'readings',
        lineNumber: 6,
        otherLines: [5, 6],
        lineCount: 2,
        duplicateKey: 'readingsKs1__01_03_2024',
      },
    });
  });

  errorCode('missingParentLineInRecursiveReference', () => {
    // Terrain's per-line report before issue 25: the catalogue keeps it for the reports stored then, never produced.
    const result = validate('zones', 'code;label;parent\nNord;;\nRive;;Lac Vert\n');
    expect(result.report.errors.map((error) => error.code)).toEqual(['missingrecursiveParentReferenceWithComponent']);
  });

  errorCode('missingrecursiveParentReferenceWithComponent', () => {
    const error = only(validate('zones', 'code;label;parent\nNord;;\nRive;;Lac Vert\nLac;;Mer\nCap;;Lac Vert\n'));
    expect(error).toEqual({
      lineNumber: -1,
      code: 'missingrecursiveParentReferenceWithComponent',
      params: {
        component: 'parent',
        refType: 'zones',
        referenceValues: ['nord', 'rive', 'lac', 'cap'],
        values: ['lac_vert', 'mer'],
      },
      column: 'parent',
    });
    // A loop of parents has no root: both parents are missing, as in the original.
    const loop = only(validate('zones', 'code;label;parent\nA;;B\nB;;A\n'));
    expect(loop.params.values).toEqual(['b', 'a']);
  });

  errorCode('timerangeoutofinterval', () => {
    const result = readings(['S1;01/03/2024;2;good;1;ok', 'S1;01/04/2024;2;good;1;ok'], {
      deposit: { from: '2024-03-01T00:00:00', to: '2024-03-31T00:00:00' },
    });
    expect(only(result)).toEqual({
      lineNumber: 6,
      code: 'timerangeoutofinterval',
      params: { component: 'day', value: '01/04/2024', from: '2024-03-01T00:00:00', to: '2024-03-31T00:00:00' },
      column: 'day',
      value: '01/04/2024',
    });
  });

  errorCode('badauthorizationscopeforrepository', () => {
    const result = validate(
      'stations',
      `${STATIONS_HEADER}\n${station({ zone: 'Rive' })}\n${station({ zone: 'Sud' })}\n`,
      {
        references: refs,
        deposit: { scope: { zone: 'zonesKnord.zonesKlac_bleu' } },
      },
    );
    expect(only(result)).toEqual({
      lineNumber: 3,
      code: 'badauthorizationscopeforrepository',
      params: { component: 'zone', value: 'zonesKsud', expected: 'zonesKnord.zonesKlac_bleu' },
      column: 'zone',
      value: 'zonesKsud',
    });
  });

  it('has a test for every code', () => {
    expect([...CSV_ERROR_CODES].filter((code) => !tested.has(code))).toEqual([]);
  });
});

describe('errors that stop the file', () => {
  it('reads no data line when the header is wrong', () => {
    const result = validate('properties', 'name;colour\nph;red\n;blue\n');
    expect(result.report.errors.map((error) => error.code)).toEqual(['invalidHeaders']);
    expect(result.report.rowCount).toBe(2);
    expect(result.rows).toEqual([]);
  });

  it('keeps the first errors and counts them all', () => {
    const lines = Array.from({ length: 30 }, (_, index) => station({ code: `S${index}`, slots: 'x' }));
    const result = validate('stations', `${STATIONS_HEADER}\n${lines.join('\n')}\n`, {
      references: refs,
      maxErrors: 10,
    });
    expect(result.report.errorCount).toBe(30);
    expect(result.report.errors).toHaveLength(10);
    expect(result.report.truncated).toBe(true);
    expect(result.report.errors[9].lineNumber).toBe(11);
  });

  it('gives only valid rows', () => {
    const result = stations(station({ code: 'S1' }), station({ code: 'S2', slots: 'x' }), station({ code: 'S3' }));
    expect(result.rows.map((row) => row.values.code)).toEqual(['S1', 'S3']);
  });

  it('never throws on a configuration without the entry', () => {
    expect(() =>
      validate('unknown', 'a\n', {
        model: modelOf('OA_version: 2.0.1\nOA_application: {OA_name: vide, OA_version: 1.0.0}\n'),
      }),
    ).toThrow(/No data entry/);
  });
});
