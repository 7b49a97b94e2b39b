/**
 * Reference uploads over HTTP (issue 7, server side): a refused file leaves the stored table exactly as it was;
 * a refusal lists the very errors the browser's engine gives for the same file and stored references; a new file
 * updates rows by natural key and keeps the others; exports are quoted CSV in the entry's separator that load
 * again into a fresh application as the same rows; zip exports; guarded deletion; a seeded fuzz of 2,000 mutated
 * files that never gets a 5xx. One server for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import {
  validateCsvText,
  type CsvDeposit,
  type CsvError,
  type CsvReport,
  type StoredRow,
} from '../../src/domain/csv/index.ts';
import { PROPERTIES_CSV, TEST_CONFIGURATION, ZONES_CSV } from '../../src/domain/csv/testKit.ts';
import { WRITE_BATCH } from '../../server/workers/rowColumns.ts';
import { MAX_REPORTED_ERRORS } from '../../server/services/ingest.ts';
import {
  HABITATS_CSV,
  OBSERVATORY_YAML,
  READINGS_CSV,
  STATIONS_CSV,
  createApplication,
  csvForm,
  fetchBytes,
  modelOf,
  q,
  readCsv,
  startDataServer,
  storedRows,
  tableState,
  unzipText,
  uploadReference,
  withoutIds,
  type DataServer,
} from './dataFixtures.ts';
import { mutate } from './csvMutations.ts';
import { activeAccount, signedIn } from './accountFixtures.ts';
import type { HttpClient } from './httpClient.ts';

let data: DataServer;
let admin: HttpClient;

beforeAll(async () => {
  data = await startDataServer();
  admin = data.admin;
  await createApplication(admin, 'observatory', OBSERVATORY_YAML);
  expect((await uploadReference(admin, 'observatory', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
  expect((await uploadReference(admin, 'observatory', 'stations', 'stations.csv', STATIONS_CSV)).status).toBe(201);
  await createApplication(admin, 'essais', TEST_CONFIGURATION);
  expect((await uploadReference(admin, 'essais', 'zones', 'zones.csv', ZONES_CSV)).status).toBe(201);
  expect((await uploadReference(admin, 'essais', 'properties', 'properties.csv', PROPERTIES_CSV)).status).toBe(201);
});
afterAll(() => data?.server.close());

const models = new Map<string, ApplicationModel>();

/** What the browser's engine says of a file: the model and the stored references as the browser gets them. */
async function engineReport(
  app: string,
  dataName: string,
  fileName: string,
  content: string | Uint8Array,
  deposit?: CsvDeposit,
): Promise<CsvReport> {
  if (!models.has(app)) models.set(app, await modelOf(admin, app));
  const model = models.get(app)!;
  const references = new Map<string, StoredRow[]>();
  for (const entry of model.data.filter((d) => d.kind === 'reference'))
    references.set(entry.name, await storedRows(admin, app, entry.name));
  const text = typeof content === 'string' ? content : new TextDecoder().decode(content);
  return validateCsvText(
    {
      model,
      dataName,
      fileName,
      references: { rows: (name) => references.get(name) ?? [] },
      maxErrors: MAX_REPORTED_ERRORS,
      deposit,
    },
    text,
  ).report;
}

/** The refusal of a file and the engine's report for it are the same: errors (in order), count, truncation. */
function expectSameRefusal(answer: { status: number; body: any; text: string }, report: CsvReport) {
  expect(report.errorCount, 'the engine finds errors in this file').toBeGreaterThan(0);
  expect(answer.status, answer.text.slice(0, 500)).toBe(400);
  expect(answer.body.code).toBe('INVALID_CSV');
  expect(answer.body.errors as CsvError[]).toEqual(report.errors);
  expect(answer.body.params).toEqual({ errorCount: report.errorCount, truncated: report.truncated });
}

const station = (cells: Partial<Record<string, string>>) => {
  const row: Record<string, string> = {
    code: 'x',
    Nom: 'X',
    altitude: '1',
    depth: '1',
    opened: '01/01/2020',
    habitat: 'lake',
    habitats: 'lake',
    ...cells,
  } as Record<string, string>;
  return ['code', 'Nom', 'altitude', 'depth', 'opened', 'habitat', 'habitats'].map((h) => row[h]).join(';');
};
const STATIONS_HEADER = 'code;Nom;altitude;depth;opened;habitat;habitats';

describe('a refused upload', () => {
  it('leaves the table as it was when the file corrects some rows and breaks one line', async () => {
    const before = await tableState(admin, 'observatory', 'stations');
    const file = [
      STATIONS_HEADER,
      station({ code: 'anterne', Nom: "Lac d'Anterne (corrigé)", altitude: '2070' }),
      station({ code: 'nouvelle', Nom: 'Nouvelle' }),
      station({ code: 'gers', depth: '150' }),
      station({ code: 'leman', altitude: '380' }),
    ].join('\n');
    const answer = await uploadReference(admin, 'observatory', 'stations', 'stations.csv', file);
    expectSameRefusal(answer, await engineReport('observatory', 'stations', 'stations.csv', file));
    expect(answer.body.errors.map((e: CsvError) => [e.lineNumber, e.code])).toEqual([
      [4, 'badIntervalFloatWithComponent'],
    ]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(before);
  });

  it('leaves the table as it was when the broken line comes after several written batches', async () => {
    const before = await tableState(admin, 'observatory', 'stations');
    const lines = Array.from({ length: 3 * WRITE_BATCH + 17 }, (_, i) =>
      station({ code: `s${i}`, altitude: String(i) }),
    );
    // The upsert part: existing rows corrected first, then thousands of new ones, then the broken line.
    const file =
      [
        STATIONS_HEADER,
        station({ code: 'vallot', altitude: '4400' }),
        ...lines,
        station({ code: 'late', habitats: 'lake,glacier' }),
      ].join('\n') + '\n';
    const answer = await uploadReference(admin, 'observatory', 'stations', 'stations.csv', file);
    expectSameRefusal(answer, await engineReport('observatory', 'stations', 'stations.csv', file));
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ lineNumber: lines.length + 3, code: 'invalidReferenceWithComponent' }),
    ]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(before);
  });

  it('refuses a line repeating a key inside one written batch of a large file (400, never 500), and stores nothing', async () => {
    const before = await tableState(admin, 'observatory', 'stations');
    // Large enough for batches to be written while later lines are checked; the repeat sits in an early batch, so
    // both lines would reach the database in one statement if the repeat were given.
    const lines = Array.from({ length: 30_000 }, (_, i) =>
      station({ code: `dup${i}`, Nom: `Station ${i} ${'x'.repeat(60)}`, altitude: String(i) }),
    );
    lines.splice(11, 0, lines[10]);
    const file = [STATIONS_HEADER, ...lines].join('\n') + '\n';
    const answer = await uploadReference(admin, 'observatory', 'stations', 'stations.csv', file);
    expectSameRefusal(answer, await engineReport('observatory', 'stations', 'stations.csv', file));
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ lineNumber: 13, code: 'duplicatedLineInReference' }),
    ]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(before);
  }, 120_000);

  it('leaves the table as it was on a header, format or whole-file error', async () => {
    const before = await tableState(admin, 'observatory', 'habitats');
    for (const file of [
      'code,label,label_en\nlake,Lac,Lake\n',
      'code,label_fr,label_en\nlake,"Lac,Lake\n',
      'label_fr\nLac\n',
      'code,label_fr,label_en\nlake,Lac,Lake\nlake,Lac bis,Lake bis\n',
    ]) {
      const answer = await uploadReference(admin, 'observatory', 'habitats', 'habitats.csv', file);
      expectSameRefusal(answer, await engineReport('observatory', 'habitats', 'habitats.csv', file));
    }
    expect(await tableState(admin, 'observatory', 'habitats')).toEqual(before);
  });

  it('refuses a file saved as Latin-1 (a spreadsheet\'s "CSV" on many systems) instead of storing its accents garbled', async () => {
    const before = await tableState(admin, 'observatory', 'habitats');
    const file = Uint8Array.from('code,label_fr,label_en\nlake,Lac,Lake\nforest,For\xeat,Forest\n', (character) =>
      character.charCodeAt(0),
    );
    const answer = await uploadReference(admin, 'observatory', 'habitats', 'habitats.csv', file);
    expectSameRefusal(answer, await engineReport('observatory', 'habitats', 'habitats.csv', file));
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ lineNumber: 3, code: 'invalidFormat', params: { reason: 'notUtf8', columnNumber: 2 } }),
    ]);
    expect(await tableState(admin, 'observatory', 'habitats')).toEqual(before);
  });

  it('refuses a day that does not exist (31/02) with its line, column, value and pattern, and stores nothing', async () => {
    const impossible = (lineNumber: number, column: string, value: string) => ({
      lineNumber,
      code: 'invalidDateWithComponent',
      params: { component: column, value, pattern: 'dd/MM/yyyy' },
      column,
      value,
    });
    const stations = await tableState(admin, 'observatory', 'stations');
    const stationsFile = [
      STATIONS_HEADER,
      station({ code: 'anterne', Nom: 'Anterne' }),
      station({ code: 'nouvelle', opened: '31/02/2020' }),
    ].join('\n');
    const stationsAnswer = await uploadReference(admin, 'observatory', 'stations', 'stations.csv', stationsFile);
    expectSameRefusal(stationsAnswer, await engineReport('observatory', 'stations', 'stations.csv', stationsFile));
    expect(stationsAnswer.body.errors).toEqual([impossible(3, 'opened', '31/02/2020')]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(stations);

    const readings = await tableState(admin, 'observatory', 'readings', 'data');
    const readingsFile = 'station;day;value;note\nanterne;28/02/2023;1;\ngers;29/02/2023;2;\n';
    const readingsAnswer = await admin.post('/applications/observatory/data/readings', {
      body: csvForm('readings.csv', readingsFile),
    });
    expectSameRefusal(readingsAnswer, await engineReport('observatory', 'readings', 'readings.csv', readingsFile));
    expect(readingsAnswer.body.errors).toEqual([impossible(3, 'day', '29/02/2023')]);
    expect(await tableState(admin, 'observatory', 'readings', 'data')).toEqual(readings);
  });

  it('refuses a deposit whose period ends at a time that does not exist (10:61), and lists no version', async () => {
    const file = 'campagne;C2024\n\nstation;day;level;quality;T_10;Q_10\nunits;;cm\nS1;01/02/2024;2;good;1;ok\n';
    const answer = await admin.post('/applications/essais/data/readings', {
      body: csvForm('readings.csv', file, { binaryfiledataset: { from: '2024-02-01', to: '2024-02-29 10:61' } }),
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'BAD_DEPOSIT_PERIOD',
      params: { field: 'to', value: '2024-02-29 10:61' },
    });
    expect((await admin.get('/applications/essais/filesOnRepository/readings')).body).toEqual([]);
  });

  it('leaves a data type as it was (insertion without versioning)', async () => {
    expect(
      (await admin.post('/applications/observatory/data/readings', { body: csvForm('readings.csv', READINGS_CSV) }))
        .status,
    ).toBe(201);
    const before = await tableState(admin, 'observatory', 'readings', 'data');
    expect(before.rows).toHaveLength(4);
    const file =
      'station;day;value;note\nanterne;01/06/2024;9.5;corrected\ngers;04/06/2024;1;new\nnowhere;05/06/2024;1;\n';
    const answer = await admin.post('/applications/observatory/data/readings', { body: csvForm('readings.csv', file) });
    expectSameRefusal(answer, await engineReport('observatory', 'readings', 'readings.csv', file));
    expect(await tableState(admin, 'observatory', 'readings', 'data')).toEqual(before);
  });
});

/**
 * One file per error code of the engine's own tests, against the configuration written for them (testKit),
 * sent to the server: the refusal is the engine's report, error for error. Deposit-only codes go through a
 * versioned deposit of `readings` (time scope only); `badauthorizationscopeforrepository` needs a reference scope
 * and is checked in deposits.test.ts.
 */
describe('a refusal lists the errors the browser engine gives for the same file', () => {
  const STATIONS = 'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity';
  const line = (cells: Partial<Record<string, string>>) => {
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
    return STATIONS.split(';')
      .map((h) => cells[h] ?? defaults[h])
      .join(';');
  };
  const READINGS_TOP = 'campagne;C2024\n\nstation;day;level;quality;T_10;Q_10\nunits;;cm\n';
  const covered = new Set<string>();

  const referenceCases: Array<[string, string, string]> = [
    ['emptyHeader', 'properties', 'name;;unit\nph;;\n'],
    ['duplicatedHeaders', 'properties', 'name;unit;unit\nph;;\n'],
    ['invalidHeaders', 'properties', 'name;unit;colour\nph;;\n'],
    ['missingMandatoryColumns', 'properties', 'unit\ncm\n'],
    ['headerColumnPatternNotMatching', 'stations', 'zone;code;p_ph;p_salinity\nNord;S1;7;\n'],
    ['invalidFormat', 'properties', 'name;unit\nph;"cm\n'],
    ['invalidFormat', 'properties', 'name;unit\n"ph"x;cm\n'],
    ['separatorInValue', 'properties', 'name;unit\nph;"m;s"\n'],
    ['unexpectedTokenCount', 'properties', 'name;unit\nph;;\nconductivity;µS/cm;extra\n'],
    ['invalidNaturalKey', 'properties', `name;unit\n;cm\n${'x'.repeat(300)};cm\n---;cm\n`],
    ['duplicatedLineInReference', 'properties', 'name;unit\nph;\nPH;x\nconductivity;\npH;y\n'],
    ['missingrecursiveParentReferenceWithComponent', 'zones', 'code;label;parent\nNord;;\nRive;;Lac Vert\n'],
    ['missingrecursiveParentReferenceWithComponent', 'zones', 'code;label;parent\nA;;B\nB;;A\n'],
    [
      'value checks',
      'stations',
      [
        STATIONS,
        line({ code: 'a', zone: '' }),
        line({ code: 'b', opened: '31-12-2003' }),
        line({ code: 'c', opened: '31/12/1949' }),
        line({ code: 'd', slots: '3.5' }),
        line({ code: 'e', slots: '11' }),
        line({ code: 'f', slots: '0' }),
        line({ code: 'g', depth: '12,5,1' }),
        line({ code: 'h', depth: '100.5' }),
        line({ code: 'o', depth: '3.14159265358979323846' }),
        line({ code: 'i', automatic: 'oui' }),
        line({ code: 'j', serial: 'ab123' }),
        line({ code: 'k', zone: 'Ouest' }),
        line({ code: 'l', neighbours: 'Nord,Est' }),
        line({ code: 'm', neighbours: 'Est,Est,Ouest' }),
        line({ code: 'n', p_ph: 'x' }),
        line({ code: 'a', zone: 'Sud' }),
        line({ code: 'a', zone: 'Sud' }),
      ].join('\n') + '\n',
    ],
    ['a BOM, CRLF and errors', 'properties', '\uFEFFname;unit\r\nph;\r\n;cm\r\nph;x\r\n'],
    [
      'errors past the reported maximum',
      'stations',
      [
        STATIONS,
        ...Array.from({ length: MAX_REPORTED_ERRORS + 250 }, (_, i) => line({ code: `S${i}`, slots: 'x' })),
      ].join('\n'),
    ],
  ];

  it.each(referenceCases)('%s (%s)', async (name, entry, file) => {
    const before = await tableState(admin, 'essais', entry);
    const answer = await uploadReference(admin, 'essais', entry, `${entry}.csv`, file);
    const report = await engineReport('essais', entry, `${entry}.csv`, file);
    expectSameRefusal(answer, report);
    for (const error of report.errors) covered.add(error.code);
    if (name === 'errors past the reported maximum') expect(answer.body.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(await tableState(admin, 'essais', entry)).toEqual(before);
  });

  const depositCases: Array<[string, string[]]> = [
    ['missingHeaderLine', []],
    ['unexpectedHeaderColumn', ['S1;01/03/2024;1;;']],
    ['checkerExpressionReturnedFalse', ['S1;01/03/2024;2;bad;1;ok', 'S2;01/03/2024;12;good;1;ok']],
    ['expressionEvaluationError', ['S0;01/03/2024;2;good;1;ok']],
    ['groovyException', ['S1;01/03/2024;2;XX;1;ok']],
    ['duplicatedLineInReference (data)', ['S1;01/03/2024;2;good;1;ok', 'S1;01/03/2024;3;good;1;ok']],
    ['timerangeoutofinterval', ['S1;01/03/2024;2;good;1;ok', 'S1;01/04/2024;2;good;1;ok']],
  ];

  it.each(depositCases)('%s (a versioned deposit)', async (name, lines) => {
    const file =
      name === 'missingHeaderLine'
        ? 'campagne;C2024\n'
        : name === 'unexpectedHeaderColumn'
          ? `campagne;C2024\n\nstation;day;T_10;level;quality\n\n${lines.join('\n')}\n`
          : READINGS_TOP + lines.join('\n') + '\n';
    const params = { binaryfiledataset: { from: '2024-03-01', to: '2024-03-31' } };
    const answer = await admin.post('/applications/essais/data/readings', {
      body: csvForm('readings.csv', file, params),
    });
    const report = await engineReport('essais', 'readings', 'readings.csv', file, {
      scope: {},
      from: '2024-03-01T00:00:00',
      to: '2024-03-31T00:00:00',
    });
    expectSameRefusal(answer, report);
    for (const error of report.errors) covered.add(error.code);
    expect((await admin.get('/applications/essais/filesOnRepository/readings')).body).toEqual([]);
  });

  it('covered every error code the engine gives for these files', () => {
    expect([...covered].sort()).toEqual(
      [
        'badIntervalDateWithComponent',
        'badIntervalFloatWithComponent',
        'badIntervalIntegerWithComponent',
        'checkerExpressionReturnedFalse',
        'duplicatedHeaders',
        'duplicatedLineInReference',
        'emptyHeader',
        'expressionEvaluationError',
        'floatPrecisionLost',
        'groovyException',
        'headerColumnPatternNotMatching',
        'invalidBooleanWithComponent',
        'invalidDateWithComponent',
        'invalidFloatWithComponent',
        'invalidFormat',
        'invalidHeaders',
        'invalidIntegerWithComponent',
        'invalidNaturalKey',
        'invalidReferenceWithComponent',
        'missingHeaderLine',
        'missingMandatoryColumns',
        'missingrecursiveParentReferenceWithComponent',
        'patternNotMatchedWithComponent',
        'requiredValueWithComponent',
        'separatorInValue',
        'timerangeoutofinterval',
        'unexpectedHeaderColumn',
        'unexpectedTokenCount',
      ].sort(),
    );
  });
});

describe('a new file for a reference', () => {
  it('taken twice at once into an empty entry, keeps both: one after the other, never a failure', async () => {
    await createApplication(admin, 'twice', OBSERVATORY_YAML);
    expect((await uploadReference(admin, 'twice', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
    // Large enough that both are written in batches while being checked.
    const file = (altitude: string, extra: string) =>
      [
        STATIONS_HEADER,
        ...Array.from({ length: 20_000 }, (_, i) => station({ code: `t${i}`, altitude })),
        station({ code: extra, altitude }),
      ].join('\n') + '\n';
    const answers = await Promise.all([
      uploadReference(admin, 'twice', 'stations', 'a.csv', file('1', 'only_a')),
      uploadReference(admin, 'twice', 'stations', 'b.csv', file('2', 'only_b')),
    ]);
    for (const answer of answers) expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    const rows = await storedRows(admin, 'twice', 'stations');
    expect(rows).toHaveLength(20_002);
    const shared = rows.filter((row) => row.naturalKey.startsWith('t'));
    // Every shared row comes from the same file: the one written last.
    expect(new Set(shared.map((row) => row.values.altitude)).size).toBe(1);
    expect(rows.map((row) => row.naturalKey)).toEqual(expect.arrayContaining(['only_a', 'only_b']));
  }, 180_000);

  it('updates rows by natural key and keeps the rows the file does not mention', async () => {
    const before = await tableState(admin, 'observatory', 'habitats');
    const answer = await uploadReference(
      admin,
      'observatory',
      'habitats',
      'habitats.csv',
      'code,label_fr,label_en\nlake,Lac de montagne,Mountain lake\nglacier,Glacier,Glacier\n',
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({
      referenceType: 'habitats',
      lineCount: 2,
      added: 1,
      replaced: 1,
      totalRows: before.rows.length + 1,
    });
    const after = await tableState(admin, 'observatory', 'habitats');
    expect(after.lineCount).toBe(before.rows.length + 1);
    expect(after.totalRows).toBe(before.rows.length + 1);
    const byKey = new Map(after.rows.map((row) => [row.naturalKey, row]));
    // The updated row keeps its id (rows pointing to it stay valid); the others are untouched.
    for (const row of before.rows) {
      if (row.naturalKey === 'lake')
        expect(byKey.get('lake')).toEqual({
          ...row,
          values: { code: 'lake', label_fr: 'Lac de montagne', label_en: 'Mountain lake' },
        });
      else expect(byKey.get(row.naturalKey)).toEqual(row);
    }
    expect(byKey.get('glacier')?.values).toEqual({ code: 'glacier', label_fr: 'Glacier', label_en: 'Glacier' });
  });
});

describe('exports', () => {
  it('write CSV in UTF-8 with the entry separator, every field quoted, headers translated, values as a file gives them', async () => {
    const fr = await admin.get(`/applications/observatory/references/stations/csv${q({ outPut: { locale: 'fr' } })}`);
    expect(fr.status).toBe(200);
    expect(fr.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(fr.headers.get('content-disposition')).toBe('attachment; filename="stations.csv"');
    const lines = fr.text.split('\n');
    expect(lines[0]).toBe('"code";"Nom";"altitude";"depth";"opened";"habitat";"habitats"');
    expect(lines).toContain('"anterne";"Lac d\'Anterne";"2063";"12.5";"15/06/2019";"lake";"lake,meadow"');
    expect(lines).toContain('"gers";"Lac de ""Gers""";"1544";"7";"20/08/2021";"lake";"lake"');
    expect(lines).toContain('"vallot";"Vallot";"4362";"";"10/10/2020";"scree";""');
    const en = await admin.get('/applications/observatory/references/stations/csv', {
      headers: { 'accept-language': 'en' },
    });
    expect(en.text.split('\n')[0]).toBe('"code";"Name";"altitude";"depth";"opened";"habitat";"habitats"');
    const habitats = await admin.get('/applications/observatory/references/habitats/csv');
    expect(readCsv(habitats.text, ',')[0]).toEqual(['code', 'label_fr', 'label_en']);
    expect(habitats.text).toContain('"scree","Éboulis ""actifs""","Scree"\n');
    // Filters apply to exports too.
    const high = await admin.get(
      `/applications/observatory/references/stations/csv${q({ componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '2000', to: '3000' } }] })}`,
    );
    expect(
      readCsv(high.text, ';')
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(['anterne', 'brevent']);
  });

  it('load again into a fresh application as the very same rows', async () => {
    await createApplication(admin, 'observatory_copy', OBSERVATORY_YAML);
    for (const entry of ['habitats', 'stations']) {
      const exported = await admin.get(
        `/applications/observatory/references/${entry}/csv${q({ outPut: { locale: 'fr' } })}`,
      );
      const loaded = await uploadReference(admin, 'observatory_copy', entry, `${entry}.csv`, exported.text);
      expect(loaded.status, loaded.text.slice(0, 500)).toBe(201);
      const original = await tableState(admin, 'observatory', entry);
      const copy = await tableState(admin, 'observatory_copy', entry);
      expect(withoutIds(copy.rows)).toEqual(withoutIds(original.rows));
      expect(copy.lineCount).toBe(original.lineCount);
    }
    const exported = await admin.get(`/applications/observatory/data/readings/csv${q({ outPut: { locale: 'fr' } })}`);
    const loaded = await admin.post('/applications/observatory_copy/data/readings', {
      body: csvForm('readings.csv', exported.text),
    });
    expect(loaded.status, loaded.text.slice(0, 500)).toBe(201);
    expect(withoutIds((await tableState(admin, 'observatory_copy', 'readings', 'data')).rows)).toEqual(
      withoutIds((await tableState(admin, 'observatory', 'readings', 'data')).rows),
    );
  });

  it('zip a reference with its CSV (export.zip), filters applied', async () => {
    const zip = await fetchBytes(
      data,
      `/applications/observatory/references/stations/zip${q({ naturalKeys: ['gers', 'leman'] })}`,
    );
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="export.zip"');
    const files = unzipText(zip.bytes);
    expect(Object.keys(files)).toEqual(['stations.csv']);
    expect(readCsv(files['stations.csv'], ';').map((row) => row[0])).toEqual(['code', 'gers', 'leman']);
  });
});

describe('deleting reference rows', () => {
  it('is refused with the rows that point to them, and deletes nothing', async () => {
    const habitats = await tableState(admin, 'observatory', 'habitats');
    const refused = await admin.delete(
      '/applications/observatory/references/habitats?naturalKey=meadow&naturalKey=glacier',
    );
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('REFERENCED_ROWS');
    // meadow is in the MANY habitats of anterne, chamonix and leman (and the single habitat of chamonix).
    expect(refused.body.params.referring).toEqual([
      { dataName: 'stations', naturalKey: 'anterne' },
      { dataName: 'stations', naturalKey: 'chamonix' },
      { dataName: 'stations', naturalKey: 'leman' },
    ]);
    expect(await tableState(admin, 'observatory', 'habitats')).toEqual(habitats);
    const stations = await tableState(admin, 'observatory', 'stations');
    const byData = await admin.delete('/applications/observatory/references/stations?naturalKey=gers');
    expect(byData.status).toBe(409);
    expect(byData.body.params.referring).toEqual([{ dataName: 'readings', naturalKey: 'gers__03_06_2024' }]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(stations);

    // Someone who may delete stations but read no readings is refused alike, without the readings' keys.
    const account = await activeAccount(data.server);
    const granted = await admin.post('/applications/observatory/authorization', {
      json: { name: 'station keeper', usersId: [account.login], authorizationForAll: { stations: ['delete'] } },
    });
    expect(granted.status, granted.text).toBe(201);
    const keeper = await signedIn(data.server, account);
    const blind = await keeper.delete('/applications/observatory/references/stations?naturalKey=gers');
    expect([blind.status, blind.body.code, blind.body.params.referring]).toEqual([409, 'REFERENCED_ROWS', []]);
    expect(await tableState(admin, 'observatory', 'stations')).toEqual(stations);
  });

  it('deletes rows nothing points to, in one go, and recounts', async () => {
    const before = await tableState(admin, 'observatory', 'stations');
    const deleted = await admin.delete(
      '/applications/observatory/references/stations?naturalKey=brevent&naturalKey=vallot',
    );
    expect(deleted.status, deleted.text).toBe(200);
    const ids = before.rows.filter((r) => ['brevent', 'vallot'].includes(r.naturalKey)).map((r) => r.id);
    expect([...deleted.body.deleted].sort()).toEqual([...ids].sort());
    const after = await tableState(admin, 'observatory', 'stations');
    expect(after.rows).toEqual(before.rows.filter((r) => !ids.includes(r.id)));
    expect(after.lineCount).toBe(before.rows.length - 2);
    // Now nothing points to scree any more (brevent and vallot were its only stations).
    expect((await admin.delete('/applications/observatory/references/habitats?naturalKey=scree')).status).toBe(200);
    expect((await admin.delete('/applications/observatory/references/habitats?naturalKey=nothing')).status).toBe(404);
  });
});

describe('fuzz: mutated files uploaded over HTTP', () => {
  const RUNS = 2000;
  /** Uploads run side by side, each into its own application (so they never wait for each other's row locks). */
  const LANES = 3;

  it(
    `never answer 5xx, and refuse exactly what the engine refuses (${RUNS} seeded files)`,
    { timeout: 300_000 },
    async () => {
      for (let lane = 0; lane < LANES; lane += 1) {
        await createApplication(admin, `fuzz_${lane}`, OBSERVATORY_YAML);
        expect((await uploadReference(admin, `fuzz_${lane}`, 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(
          201,
        );
      }
      const model = await modelOf(admin, 'fuzz_0');
      const habitats = await storedRows(admin, 'fuzz_0', 'habitats');
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      const started = Date.now();
      let next = 0;
      async function lane(app: string) {
        while (next < RUNS) {
          const seed = next++;
          const { bytes, edits } = mutate(STATIONS_CSV, seed);
          const answer = await uploadReference(admin, app, 'stations', `fuzz-${seed}.csv`, bytes);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const { report } = validateCsvText(
            {
              model,
              dataName: 'stations',
              fileName: `fuzz-${seed}.csv`,
              references: { rows: (name) => (name === 'habitats' ? habitats : []) },
              maxErrors: MAX_REPORTED_ERRORS,
            },
            new TextDecoder().decode(bytes),
          );
          const what = `seed ${seed} (${edits.join('; ')}): ${answer.status} ${answer.text.slice(0, 300)}`;
          if (answer.status >= 500) failures.push(what);
          else if (report.errorCount === 0 && (answer.status !== 201 || answer.body.lineCount !== report.rowCount))
            failures.push(`accepted by the engine, ${what}`);
          else if (
            report.errorCount > 0 &&
            (answer.status !== 400 ||
              JSON.stringify(answer.body.errors) !== JSON.stringify(report.errors) ||
              answer.body.params.errorCount !== report.errorCount)
          )
            failures.push(
              `refused by the engine with ${report.errorCount} errors (${JSON.stringify(report.errors).slice(0, 300)}), ${what}`,
            );
        }
      }
      await Promise.all(Array.from({ length: LANES }, (_, index) => lane(`fuzz_${index}`)));
      expect(failures.slice(0, 10)).toEqual([]);
      expect([...statuses.keys()].every((status) => status === 201 || status === 400)).toBe(true);
      expect(statuses.get(400)).toBeGreaterThan(RUNS / 2);
      expect(statuses.get(201)).toBeGreaterThan(RUNS / 50);
      console.log(
        `fuzz: ${RUNS} uploads in ${((Date.now() - started) / 1000).toFixed(1)} s (${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')})`,
      );
      // The server still answers normally.
      expect((await admin.get('/applications/fuzz_0/references/stations')).status).toBe(200);
    },
  );
});
