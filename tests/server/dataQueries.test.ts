/**
 * Reading references and data over HTTP (issues 7 and 8): filters (number and date intervals applied only when
 * from < to, dates read in ISO or in the column's pattern, ends that are none refused; references by natural key, MANY), order, paging, totals, display names and column descriptions; the
 * same queries answered offline by `filterRows` give the same rows; data types without versioning: upload,
 * update, deletion by row ids or natural keys, CSV and zip exports (the zip holds references/<ref>.csv),
 * synthesis. One server for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import { filterRows, type KeptRow } from '../../src/domain/rows/filterRows.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import {
  createObservatory,
  csvForm,
  type DataServer,
  fetchBytes,
  modelOf,
  q,
  readCsv,
  READINGS_CSV,
  startDataServer,
  STATIONS_CSV,
  tableState,
  unzipText,
  uploadReference,
} from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';

let data: DataServer;
let admin: HttpClient;
let model: ApplicationModel;

beforeAll(async () => {
  data = await startDataServer();
  admin = data.admin;
  await createObservatory(admin);
  model = await modelOf(admin, 'observatory');
});
afterAll(() => data?.server.close());

const stations = async (query: object, headers: Record<string, string> = {}) => {
  const answer = await admin.get(`/applications/observatory/references/stations${q(query)}`, { headers });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as {
    totalRows: number;
    referenceValues: Array<Record<string, any>>;
    columns: Array<Record<string, unknown>>;
    title: string;
  };
};
const keys = (page: { referenceValues: Array<Record<string, any>> }) => page.referenceValues.map((v) => v.naturalKey);

describe('reading a reference', () => {
  it('pages rows in natural-key order with the total of the whole selection', async () => {
    const all = await stations({});
    expect(keys(all)).toEqual(['anterne', 'brevent', 'chamonix', 'gers', 'leman', 'vallot']);
    expect(all.totalRows).toBe(6);
    const second = await stations({ offset: 2, limit: 2 });
    expect(keys(second)).toEqual(['chamonix', 'gers']);
    expect(second.totalRows).toBe(6);
    const past = await stations({ offset: 10, limit: 5 });
    expect(keys(past)).toEqual([]);
    expect(past.totalRows).toBe(6);
    const filteredPast = await stations({
      offset: 10,
      componentFilters: [{ componentKey: 'habitat', filters: ['lake'] }],
    });
    expect(filteredPast.totalRows).toBe(3);
    expect((await stations({ limit: 1000 })).referenceValues).toHaveLength(6);
  });

  it('orders by numbers as numbers, dates as dates, texts and references, then by natural key', async () => {
    expect(keys(await stations({ componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }] }))).toEqual([
      'vallot',
      'brevent',
      'anterne',
      'gers',
      'chamonix',
      'leman',
    ]);
    expect(keys(await stations({ componentOrderBy: [{ componentKey: 'altitude', order: 'ASC' }] }))).toEqual([
      'leman',
      'chamonix',
      'gers',
      'anterne',
      'brevent',
      'vallot',
    ]);
    expect(keys(await stations({ componentOrderBy: [{ componentKey: 'opened', order: 'ASC' }] }))).toEqual([
      'chamonix',
      'leman',
      'anterne',
      'brevent',
      'vallot',
      'gers',
    ]);
    expect(keys(await stations({ componentOrderBy: [{ componentKey: 'label', order: 'ASC' }] }))).toEqual([
      'chamonix',
      'anterne',
      'gers',
      'brevent',
      'leman',
      'vallot',
    ]);
    // Same habitat: the natural key decides.
    expect(keys(await stations({ componentOrderBy: [{ componentKey: 'habitat', order: 'DESC' }] }))).toEqual([
      'brevent',
      'vallot',
      'chamonix',
      'anterne',
      'gers',
      'leman',
    ]);
    expect(
      keys(await stations({ limit: 2, offset: 1, componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }] })),
    ).toEqual(['brevent', 'anterne']);
  });

  it('applies number intervals only when from < to, comparing numbers as numbers; refuses ends that are no numbers', async () => {
    const interval = (componentKey: string, from?: string, to?: string) => ({
      componentFilters: [{ componentKey, intervalValues: { from, to } }],
    });
    expect(keys(await stations(interval('altitude', '1000', '2100')))).toEqual(['anterne', 'chamonix', 'gers']);
    expect((await stations(interval('altitude', '1000', '2100'))).totalRows).toBe(3);
    // "900" < "10000" as numbers (not as texts): a real interval.
    expect(keys(await stations(interval('altitude', '900', '10000')))).toEqual([
      'anterne',
      'brevent',
      'chamonix',
      'gers',
      'vallot',
    ]);
    // As the original answers scripts: equal ends are one value, a missing end is open.
    expect(keys(await stations(interval('altitude', '1544', '1544.0')))).toEqual(['gers']);
    expect(keys(await stations(interval('altitude', '2100', undefined)))).toEqual(['brevent', 'vallot']);
    expect(keys(await stations(interval('altitude', '', '1035')))).toEqual(['chamonix', 'leman']);
    // Ignored, these read every row.
    for (const [from, to, state] of [
      ['2100', '1000', 'reversed'],
      ['abc', '2000', 'notNumbers'],
      [undefined, 'abc', 'notNumbers'],
    ]) {
      const answer = await admin.get(
        `/applications/observatory/references/stations${q(interval('altitude', from, to))}`,
      );
      expect([answer.status, answer.body.code, answer.body.params], `${from} → ${to}`).toEqual([
        400,
        'BAD_ROW_QUERY',
        { reason: 'unusableInterval', componentKey: 'altitude', state },
      ]);
    }
    // Bounds are included; an empty value is no number.
    expect(keys(await stations(interval('depth', '0', '7')))).toEqual(['brevent', 'chamonix', 'gers']);
    expect(keys(await stations(interval('depth', '-1', '1000')))).toEqual([
      'anterne',
      'brevent',
      'chamonix',
      'gers',
      'leman',
    ]);
  });

  it('applies date intervals only when from < to, written in ISO or as the column writes them, a day as upper bound taking the whole day', async () => {
    const interval = (from?: string, to?: string) => ({
      componentFilters: [{ componentKey: 'opened', intervalValues: { from, to } }],
    });
    expect(keys(await stations(interval('2019-01-01', '2020-12-31')))).toEqual(['anterne', 'brevent', 'vallot']);
    expect(keys(await stations(interval('2019-06-15', '2020-07-01')))).toEqual(['anterne', 'brevent']);
    expect(keys(await stations(interval('2019-06-15T00:00:01', '2020-07-01T00:00:00')))).toEqual(['brevent']);
    // With a space, as deposits take their periods: the last day is in (a space sorted before the stored T).
    expect(keys(await stations(interval('2019-06-15 00:00:00', '2020-07-01 23:59:59')))).toEqual([
      'anterne',
      'brevent',
    ]);
    // As the column writes them (dd/MM/yyyy), as the original reads them: compared as dates, not as texts.
    expect(keys(await stations(interval('15/06/2019', '01/07/2020')))).toEqual(['anterne', 'brevent']);
    expect(keys(await stations(interval('2020-07-01', '2020-07-01T23:59:59')))).toEqual(['brevent']);
    expect(keys(await stations(interval('2020-07-01', '01/07/2020')))).toEqual(['brevent']);
    expect(keys(await stations(interval('2020-07-02', undefined)))).toEqual(['gers', 'vallot']);
    expect(keys(await stations(interval(undefined, '2018')))).toEqual(['chamonix', 'leman']);
    for (const [from, state] of [
      ['2021-01-01', 'reversed'],
      ['yesterday', 'notDates'],
      ['31/02/2019', 'notDates'],
      ['2019-13-01', 'notDates'],
    ]) {
      const answer = await admin.get(`/applications/observatory/references/stations${q(interval(from, '2020-01-01'))}`);
      expect([answer.status, answer.body.params?.state], from).toEqual([400, state]);
    }
  });

  it('matches values as the column compares them: numbers as numbers, dates by the day they name; refuses others', async () => {
    const values = (componentKey: string, filters: string[]) => ({ componentFilters: [{ componentKey, filters }] });
    expect(keys(await stations(values('altitude', ['1544.0', '372'])))).toEqual(['gers', 'leman']);
    expect(keys(await stations(values('depth', ['12.50'])))).toEqual(['anterne']);
    expect(keys(await stations(values('opened', ['15/06/2019', '2020-07-01'])))).toEqual(['anterne', 'brevent']);
    expect(keys(await stations(values('opened', ['2018'])))).toEqual(['chamonix', 'leman']);
    for (const [componentKey, value, expected] of [
      ['altitude', 'high', 'number'],
      ['opened', 'June', 'date'],
    ]) {
      const answer = await admin.get(
        `/applications/observatory/references/stations${q(values(componentKey!, [value!]))}`,
      );
      expect([answer.status, answer.body.params]).toEqual([
        400,
        { reason: 'badFilterValue', componentKey, value, expected },
      ]);
    }
  });

  it('takes the first selector given, as the original: natural keys before ids before filters', async () => {
    const all = await stations({});
    const gersId = all.referenceValues.find((v) => v.naturalKey === 'gers')!.id as string;
    const filtered = { componentFilters: [{ componentKey: 'habitat', filters: ['scree'] }] };
    expect(keys(await stations({ naturalKeys: ['leman'], rowIds: [gersId], ...filtered }))).toEqual(['leman']);
    expect(keys(await stations({ rowIds: [gersId], ...filtered }))).toEqual(['gers']);
    const sorted = await stations({ componentOrderBy: [{ componentKey: 'altitude', order: 'desc' }] });
    expect(keys(sorted).slice(0, 2)).toEqual(['vallot', 'brevent']);
  });

  it('filters references by the natural key of the row they point to, MANY values by any of theirs, texts exactly', async () => {
    const filter = (componentKey: string, filters: string[]) => ({ componentFilters: [{ componentKey, filters }] });
    expect(keys(await stations(filter('habitat', ['lake'])))).toEqual(['anterne', 'gers', 'leman']);
    expect(keys(await stations(filter('habitat', ['lake', 'scree'])))).toEqual([
      'anterne',
      'brevent',
      'gers',
      'leman',
      'vallot',
    ]);
    expect(keys(await stations(filter('habitats', ['forest'])))).toEqual(['chamonix', 'leman']);
    expect(keys(await stations(filter('habitats', ['forest', 'scree'])))).toEqual(['brevent', 'chamonix', 'leman']);
    expect(keys(await stations(filter('habitats', ['nothing'])))).toEqual([]);
    expect(keys(await stations(filter('label', ['Chamonix'])))).toEqual(['chamonix']);
    expect(keys(await stations(filter('label', ['chamonix'])))).toEqual([]);
    // Several filters all apply.
    const both = await stations({
      componentFilters: [
        { componentKey: 'habitats', filters: ['meadow'] },
        { componentKey: 'altitude', intervalValues: { from: '0', to: '1500' } },
      ],
    });
    expect(keys(both)).toEqual(['chamonix', 'leman']);
    expect(both.totalRows).toBe(2);
  });

  it('selects rows by natural keys and by ids', async () => {
    const chosen = await stations({ naturalKeys: ['gers', 'vallot', 'nowhere'] });
    expect(keys(chosen)).toEqual(['gers', 'vallot']);
    const ids = chosen.referenceValues.map((v) => v.id as string);
    expect(keys(await stations({ rowIds: [ids[1]] }))).toEqual(['vallot']);
  });

  it('gives display names in the default and the asked language, and describes the columns', async () => {
    const fr = await stations({ naturalKeys: ['gers'], outPut: { locale: 'fr' } });
    expect(fr.referenceValues[0]).toMatchObject({
      __display_default: 'Lac de "Gers" station',
      __display_fr: 'Station Lac de "Gers"',
    });
    expect(fr.columns.find((c) => c.key === 'label')).toMatchObject({ title: 'Nom', checker: null, hidden: false });
    expect(fr.columns.find((c) => c.key === 'habitats')).toMatchObject({
      checker: 'reference',
      reference: 'habitats',
      multiplicity: 'MANY',
    });
    expect(fr.columns.find((c) => c.key === 'altitude')).toMatchObject({ checker: 'integer' });
    expect(fr.title).toBe('Stations');
    const en = await stations({ naturalKeys: ['gers'] }, { 'accept-language': 'en' });
    expect(en.referenceValues[0]).toMatchObject({
      __display_default: 'Lac de "Gers" station',
      __display_en: 'Lac de "Gers" station',
    });
    expect(en.columns.find((c) => c.key === 'label')).toMatchObject({ title: 'Name' });
    const habitats = await admin.get(
      `/applications/observatory/references/habitats${q({ naturalKeys: ['scree'], outPut: { locale: 'fr' } })}`,
    );
    expect(habitats.body.referenceValues[0]).toMatchObject({
      __display_default: 'Scree',
      __display_fr: 'Éboulis "actifs"',
      values: { code: 'scree', label_fr: 'Éboulis "actifs"', label_en: 'Scree' },
    });
  });

  it('refuses queries it cannot answer', async () => {
    const unknown = await admin.get(
      `/applications/observatory/references/stations${q({ componentFilters: [{ componentKey: 'colour', filters: ['red'] }] })}`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_COMPONENT', params: { component: 'colour' } });
    expect(
      (
        await admin.get(
          `/applications/observatory/references/stations${q({ componentOrderBy: [{ componentKey: 'colour', order: 'ASC' }] })}`,
        )
      ).body.code,
    ).toBe('UNKNOWN_COMPONENT');
    expect(
      (
        await admin.get(
          `/applications/observatory/references/stations${q({ componentFilters: [{ componentKey: 'altitude' }] })}`,
        )
      ).body.code,
    ).toBe('FILTER_MISSING_FILTER_OR_INTERVAL');
    expect(
      (await admin.get('/applications/observatory/references/stations?downloadDatasetQuery=%7Bnot%20json')).body.code,
    ).toBe('BAD_ROW_QUERY');
    expect((await admin.get(`/applications/observatory/references/stations${q({ offset: -1 })}`)).body.code).toBe(
      'BAD_ROW_QUERY',
    );
    // A page larger than the largest is refused, saying so, rather than cut to it.
    for (const path of ['references/stations', 'references/stations/json', 'data/readings/json']) {
      const large = await admin.get(`/applications/observatory/${path}${q({ limit: 1001 })}`);
      expect([large.status, large.body.code, large.body.params], path).toEqual([
        400,
        'BAD_ROW_QUERY',
        { reason: 'limitTooLarge', max: 1000 },
      ]);
    }
  });

  it('answers every query as the offline copy does (filterRows on the rows the browser keeps)', async () => {
    const kept = (await admin.get('/applications/observatory/references/stations/rows')).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as KeptRow);
    const habitats = (await admin.get('/applications/observatory/references/habitats/rows')).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as KeptRow);
    const entry = model.data.find((d) => d.name === 'stations')!;
    const hierarchicalKeysOf = (_reference: string, naturalKeys: string[]) =>
      new Set(habitats.filter((h) => naturalKeys.includes(h.naturalKey)).map((h) => h.hierarchicalKey));
    const queries: RowQuery[] = [
      {},
      { offset: 1, limit: 3 },
      { componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }] },
      { componentOrderBy: [{ componentKey: 'opened', order: 'ASC' }], limit: 4 },
      { componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '900', to: '10000' } }] },
      { componentFilters: [{ componentKey: 'depth', intervalValues: { from: '0', to: '7' } }] },
      { componentFilters: [{ componentKey: 'opened', intervalValues: { from: '2019-06-15', to: '2020-07-01' } }] },
      { componentFilters: [{ componentKey: 'opened', intervalValues: { from: '15/06/2019', to: '01/07/2020' } }] },
      { componentFilters: [{ componentKey: 'opened', intervalValues: { from: '2020-07-02' } }] },
      { componentFilters: [{ componentKey: 'altitude', intervalValues: { to: '1035' } }] },
      { componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '1544', to: '1544.0' } }] },
      { componentFilters: [{ componentKey: 'altitude', filters: ['1544.0', '372'] }] },
      { componentFilters: [{ componentKey: 'opened', filters: ['15/06/2019', '2018'] }] },
      {
        componentFilters: [
          { componentKey: 'opened', intervalValues: { from: '2019-06-15 00:00', to: '2020-07-01 23:59' } },
        ],
      },
      { componentFilters: [{ componentKey: 'habitat', filters: ['lake', 'scree'] }] },
      {
        componentFilters: [{ componentKey: 'habitats', filters: ['forest', 'scree'] }],
        componentOrderBy: [{ componentKey: 'label', order: 'DESC' }],
      },
      { componentFilters: [{ componentKey: 'label', filters: ['Chamonix', 'Vallot'] }] },
      { naturalKeys: ['gers', 'vallot'] },
    ];
    for (const query of queries) {
      const online = await stations(query);
      const offline = filterRows(entry, kept, query, hierarchicalKeysOf);
      expect({ rows: keys(online), total: online.totalRows }, JSON.stringify(query)).toEqual({
        rows: offline.rows.map((r) => r.naturalKey),
        total: offline.totalRows,
      });
    }
  });

  it('never answers a filter as it was before a write: pages and totals follow every upload', async () => {
    const interval = { componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '1000', to: '2100' } }] };
    const secondLake = { componentFilters: [{ componentKey: 'habitat', filters: ['lake'] }], limit: 1, offset: 1 };
    expect(keys(await stations(interval))).toEqual(['anterne', 'chamonix', 'gers']);
    expect(keys(await stations(secondLake))).toEqual(['gers']);
    const moved = STATIONS_CSV.replace(
      'gers;"Lac de ""Gers""";1544;7;20/08/2021;lake;lake',
      'gers;"Lac de ""Gers""";2544;7;20/08/2021;meadow;lake',
    );
    expect((await uploadReference(admin, 'observatory', 'stations', 'stations.csv', moved)).status).toBe(201);
    expect(keys(await stations(interval))).toEqual(['anterne', 'chamonix']);
    const lakes = await stations(secondLake);
    expect({ rows: keys(lakes), total: lakes.totalRows }).toEqual({ rows: ['leman'], total: 2 });
    expect((await uploadReference(admin, 'observatory', 'stations', 'stations.csv', STATIONS_CSV)).status).toBe(201);
    expect(keys(await stations(interval))).toEqual(['anterne', 'chamonix', 'gers']);
    expect((await stations(secondLake)).totalRows).toBe(3);
  });
});

describe('a data type without versioning', () => {
  let firstIds: string[] = [];

  it('loads a file, then updates rows by natural key and keeps the others', async () => {
    const loaded = await admin.post('/applications/observatory/data/readings', {
      body: csvForm('readings.csv', READINGS_CSV),
    });
    expect(loaded.status, loaded.text).toBe(201);
    expect(loaded.body).toEqual({ dataType: 'readings', lineCount: 4, added: 4, replaced: 0, totalRows: 4 });
    const before = await tableState(admin, 'observatory', 'readings', 'data');
    firstIds = before.rows.map((r) => r.id);
    const again = await admin.post('/applications/observatory/data/readings', {
      body: csvForm('readings.csv', 'station;day;value;note\nanterne;02/06/2024;5.5;revised\nleman;01/06/2024;8;\n'),
    });
    expect(again.body).toEqual({ dataType: 'readings', lineCount: 2, added: 1, replaced: 1, totalRows: 5 });
    const after = await tableState(admin, 'observatory', 'readings', 'data');
    expect(after.lineCount).toBe(5);
    expect(after.rows.find((r) => r.naturalKey === 'anterne__02_06_2024')).toMatchObject({
      id: before.rows.find((r) => r.naturalKey === 'anterne__02_06_2024')!.id,
      values: { value: 5.5, note: 'revised' },
    });
    expect(after.rows.map((r) => r.naturalKey)).toEqual([
      'anterne__01_06_2024',
      'anterne__02_06_2024',
      'chamonix__01_06_2024',
      'gers__03_06_2024',
      'leman__01_06_2024',
    ]);
  });

  it('is read with the same filters, order and paging as references', async () => {
    const read = async (query: object) =>
      (await admin.get(`/applications/observatory/data/readings/json${q(query)}`)).body;
    const page = await read({ limit: 2, componentOrderBy: [{ componentKey: 'value', order: 'DESC' }] });
    expect(page.dataType).toBe('readings');
    expect(page.totalRows).toBe(5);
    expect(page.rows.map((r: { naturalKey: string }) => r.naturalKey)).toEqual([
      'gers__03_06_2024',
      'leman__01_06_2024',
    ]);
    expect(page.rows[0]).toMatchObject({
      // The reference as the original's answers give it, its hierarchical key kept for links and scopes.
      values: { station: 'gers', day: 'date:2024-06-03T00:00:00:dd/MM/yyyy', value: 12, note: 'windy' },
      referenceKeys: { station: 'stationsKgers' },
      __display_default: 'gers__03_06_2024',
    });
    const byStation = await read({ componentFilters: [{ componentKey: 'station', filters: ['anterne'] }] });
    expect(byStation.rows.map((r: { naturalKey: string }) => r.naturalKey)).toEqual([
      'anterne__01_06_2024',
      'anterne__02_06_2024',
    ]);
    const byDay = await read({
      componentFilters: [{ componentKey: 'day', intervalValues: { from: '2024-06-02', to: '2024-06-03' } }],
    });
    expect(byDay.rows.map((r: { naturalKey: string }) => r.naturalKey)).toEqual([
      'anterne__02_06_2024',
      'gers__03_06_2024',
    ]);
    const negative = await read({
      componentFilters: [{ componentKey: 'value', intervalValues: { from: '-5', to: '0' } }],
    });
    expect(negative.rows.map((r: { naturalKey: string }) => r.naturalKey)).toEqual(['chamonix__01_06_2024']);
  });

  it('exports CSV, and a zip with the CSV of every reference its columns point to', async () => {
    const csv = await admin.get(
      `/applications/observatory/data/readings/csv${q({ componentFilters: [{ componentKey: 'station', filters: ['anterne', 'chamonix'] }] })}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="readings.csv"');
    expect(readCsv(csv.text, ';')).toEqual([
      ['station', 'day', 'value', 'note'],
      ['anterne', '01/06/2024', '4.5', 'calm'],
      ['anterne', '02/06/2024', '5.5', 'revised'],
      ['chamonix', '01/06/2024', '-1.25', 'frost'],
    ]);
    const zip = await fetchBytes(data, '/applications/observatory/data/readings/zip');
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="export.zip"');
    const files = unzipText(zip.bytes);
    expect(Object.keys(files).sort()).toEqual(['readings.csv', 'references/stations.csv']);
    expect(readCsv(files['readings.csv'], ';')).toHaveLength(6);
    expect(readCsv(files['references/stations.csv'], ';').map((row) => row[0])).toEqual([
      'code',
      'anterne',
      'brevent',
      'chamonix',
      'gers',
      'leman',
      'vallot',
    ]);
  });

  it('counts the lines with a value per variable over ten intervals of the days the rows cover (rows keep their period without versioning too)', async () => {
    const synthesis = await admin.get('/applications/observatory/synthesis/readings');
    expect(synthesis.status).toBe(200);
    expect(synthesis.body).toMatchObject({
      dataType: 'readings',
      from: '2024-06-01T00:00:00',
      to: '2024-06-04T00:00:00',
    });
    expect(synthesis.body.intervals).toHaveLength(10);
    const total = (counts: number[]) => counts.reduce((a, b) => a + b, 0);
    expect(
      Object.fromEntries(
        Object.entries(synthesis.body.variables as Record<string, number[]>).map(([key, counts]) => [
          key,
          total(counts),
        ]),
      ),
    ).toEqual({ station: 5, day: 5, value: 5, note: 4 });
    // Three rows on 1 June (one without a note), one on the 2nd, one on the 3rd.
    expect(synthesis.body.variables.station).toEqual([3, 0, 0, 1, 0, 0, 1, 0, 0, 0]);
    expect((await admin.get('/applications/observatory/synthesis/readings/note')).body.variables).toEqual({
      note: [2, 0, 0, 1, 0, 0, 1, 0, 0, 0],
    });
  });

  it('deletes rows by id and by natural key, and recounts', async () => {
    const before = await tableState(admin, 'observatory', 'readings', 'data');
    const gone = before.rows.filter((r) => r.naturalKey.startsWith('anterne')).map((r) => r.id);
    expect(gone.every((id) => firstIds.includes(id))).toBe(true);
    const byIds = await admin.delete(`/applications/observatory/data/readings${q({ rowIds: gone })}`);
    expect(byIds.status, byIds.text).toBe(200);
    expect([...byIds.body.deleted].sort()).toEqual([...gone].sort());
    const byKey = await admin.delete(
      `/applications/observatory/data/readings${q({ naturalKeys: ['leman__01_06_2024'] })}`,
    );
    expect(byKey.body.deleted).toHaveLength(1);
    const after = await tableState(admin, 'observatory', 'readings', 'data');
    expect(after.rows.map((r) => r.naturalKey)).toEqual(['chamonix__01_06_2024', 'gers__03_06_2024']);
    expect(after.totalRows).toBe(2);
    expect(after.lineCount).toBe(2);
    // Nothing matching: nothing deleted.
    expect((await admin.delete(`/applications/observatory/data/readings${q({ rowIds: gone })}`)).body.deleted).toEqual(
      [],
    );
    // With the readings that pointed to them gone, anterne and leman may go too.
    expect(
      (await admin.delete('/applications/observatory/references/stations?naturalKey=anterne&naturalKey=leman')).status,
    ).toBe(200);
  });
});
