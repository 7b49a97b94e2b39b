/**
 * Exports at real size (issue 21): CSV, zip and JSON downloads of a reference and a data type give every matching
 * row, past the page cap of the consultation (1,000) and past the export's own page (5,000), in the asked order
 * (ties and missing values included), filtered by the query and by the caller's rights; a page download can ask
 * for cells that a spreadsheet would run as formulas to be neutralised, while the default keeps exact values.
 */
import { randomUUID } from 'node:crypto';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_READ_PAGE, refreshCount } from '../../server/services/dataRows.ts';
import { activeAccount, signedIn } from './accountFixtures.ts';
import {
  HABITATS_CSV,
  OBSERVATORY_YAML,
  createApplication,
  fetchBytes,
  q,
  readCsv,
  startDataServer,
  storedRows,
  unzipText,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';
import { statementsOf } from './statementsRead.ts';

const STATIONS = 6_003;
/** Readings: this many stations × DAYS days (1 to 10 June 2024). */
const READ_STATIONS = 750;
const DAYS = 10;
const HOSTILE = ['=HYPERLINK("http://evil.test","open")', '@SUM(1+1)', '+cmd|/c calc', '-2+3'];

const code = (index: number) => `st${String(index).padStart(5, '0')}`;
/** Stations whose altitude is left empty (rows without a value sort last, in both directions). */
const withoutAltitude = (index: number) => index % 11 === 0;
/** Few distinct altitudes: many rows tie on the ordered component, across the export's pages. */
const altitude = (index: number) => (index * 7) % 300;
const EMPTY_ALTITUDES = Array.from({ length: STATIONS }, (_, index) => index).filter(withoutAltitude).length;
const label = (index: number) => (index < HOSTILE.length ? HOSTILE[index] : `Station ${index}`);

function stationsCsv(): string {
  const lines = ['code;Nom;altitude;depth;opened;habitat;habitats'];
  for (let index = 0; index < STATIONS; index += 1) {
    const name = label(index).replace(/"/g, '""');
    lines.push(
      `${code(index)};"${name}";${withoutAltitude(index) ? '' : altitude(index)};${index % 100};01/01/2020;lake;lake,meadow`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function readingsCsv(): string {
  const lines = ['station;day;value;note'];
  for (let day = 1; day <= DAYS; day += 1) {
    for (let station = 0; station < READ_STATIONS; station += 1)
      lines.push(`${code(station)};${String(day).padStart(2, '0')}/06/2024;${(station % 40) - 20}.5;`);
  }
  return `${lines.join('\n')}\n`;
}

let data: DataServer;
let reader: HttpClient;

const text = async (client: HttpClient, path: string) => {
  const answer = await client.get(path);
  expect(answer.status, answer.text.slice(0, 500)).toBe(200);
  return answer.text;
};

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  expect((await uploadReference(data.admin, 'observatory', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
  const stations = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv());
  expect(stations.status, stations.text).toBe(201);
  const readings = await data.admin.post('/applications/observatory/data/readings', {
    body: (() => {
      const form = new FormData();
      form.append('file', new Blob([readingsCsv()]), 'readings.csv');
      return form;
    })(),
  });
  expect(readings.status, readings.text).toBe(201);
  const account = await activeAccount(data.server);
  const granted = await data.admin.post('/applications/observatory/authorization', {
    json: {
      name: 'first half of June',
      usersId: [account.login],
      authorizationForAll: { stations: ['extraction'], habitats: ['extraction'] },
      authorizationsWithRestriction: {
        readings: {
          operationTypes: ['extraction'],
          requiredAuthorizations: {},
          timeScope: { fromDay: '2024-06-01', toDay: '2024-06-05' },
        },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  reader = await signedIn(data.server, account);
}, 180_000);
afterAll(() => data?.server.close());

describe('a CSV export', () => {
  it('gives every row of a reference, each once, with the stored values', async () => {
    const records = readCsv(await text(data.admin, '/applications/observatory/references/stations/csv'), ';');
    expect(records[0]).toEqual(['code', 'Nom', 'altitude', 'depth', 'opened', 'habitat', 'habitats']);
    const rows = records.slice(1);
    expect(rows).toHaveLength(STATIONS);
    expect(new Set(rows.map((row) => row[0])).size).toBe(STATIONS);
    const stored = new Map(
      (await storedRows(data.admin, 'observatory', 'stations')).map((row) => [row.naturalKey, row.values]),
    );
    expect(stored.size).toBe(STATIONS);
    for (const row of rows) {
      const index = Number(row[0].slice(2));
      expect(row[1]).toBe(label(index));
      expect(row[2]).toBe(withoutAltitude(index) ? '' : String(altitude(index)));
      expect(stored.get(row[0])?.label).toBe(row[1]);
    }
  });

  it('follows a filter matching more rows than a page of the consultation', async () => {
    const query = { componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '0', to: '149' } }] };
    const total = (await data.admin.get(`/applications/observatory/references/stations${q({ ...query, limit: 1 })}`))
      .body.totalRows as number;
    expect(total).toBeGreaterThan(2_000);
    const rows = readCsv(
      await text(data.admin, `/applications/observatory/references/stations/csv${q(query)}`),
      ';',
    ).slice(1);
    expect(rows).toHaveLength(total);
    expect(rows.every((row) => Number(row[2]) <= 149 && row[2] !== '')).toBe(true);
  });

  it('keeps the asked order across pages, ties and missing values included, in both directions: the consultation pages end to end', async () => {
    for (const order of ['ASC', 'DESC'] as const) {
      const componentOrderBy = [{ componentKey: 'altitude', order }];
      const rows = readCsv(
        await text(
          data.admin,
          `/applications/observatory/references/stations/csv${q({ componentOrderBy, offset: 10, limit: 3 })}`,
        ),
        ';',
      ).slice(1);
      const pages: string[] = [];
      for (let offset = 0; offset < STATIONS; offset += 1_000) {
        const page = await data.admin.get(
          `/applications/observatory/references/stations${q({ componentOrderBy, offset, limit: 1_000 })}`,
        );
        pages.push(...page.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey));
      }
      expect(pages).toHaveLength(STATIONS);
      expect(rows.map((row) => row[0])).toEqual(pages);
      const altitudes = rows.map((row) => row[2]);
      const firstEmpty = altitudes.indexOf('');
      const numbers = altitudes.filter((value) => value !== '').map(Number);
      expect(numbers).toEqual([...numbers].sort((a, b) => (order === 'ASC' ? a - b : b - a)));
      expect(altitudes.slice(firstEmpty, firstEmpty + EMPTY_ALTITUDES).every((value) => value === '')).toBe(true);
    }
  });

  it('gives a data type in full, and a restricted reader every row of their period and no other', async () => {
    const all = readCsv(await text(data.admin, '/applications/observatory/data/readings/csv'), ';').slice(1);
    expect(all).toHaveLength(READ_STATIONS * DAYS);
    const mine = readCsv(await text(reader, '/applications/observatory/data/readings/csv'), ';').slice(1);
    expect(mine).toHaveLength(READ_STATIONS * 5);
    expect(mine.every((row) => Number(row[1].slice(0, 2)) <= 5)).toBe(true);
  });
});

describe('a zip export', () => {
  it('holds the whole data type and every row of the references it points to', async () => {
    const zip = await fetchBytes(data, '/applications/observatory/data/readings/zip');
    expect(zip.status).toBe(200);
    const files = unzipText(zip.bytes);
    expect(Object.keys(files).sort()).toEqual(['readings.csv', 'references/stations.csv']);
    expect(readCsv(files['readings.csv'], ';').slice(1)).toHaveLength(READ_STATIONS * DAYS);
    expect(readCsv(files['references/stations.csv'], ';').slice(1)).toHaveLength(STATIONS);
  });
});

describe('a JSON download', () => {
  it('without a limit streams every row in the shape of a page; with one it is a page', async () => {
    const whole = JSON.parse(
      await text(data.admin, `/applications/observatory/references/stations/json${q({ outPut: { locale: 'en' } })}`),
    );
    expect(whole.referenceValues).toHaveLength(STATIONS);
    expect(whole.totalRows).toBe(STATIONS);
    expect(whole.columns.map((c: { key: string }) => c.key)).toContain('altitude');
    expect(whole.referenceValues[5].__display_en).toBe('Station 5 station');
    const page = JSON.parse(
      await text(data.admin, `/applications/observatory/references/stations/json${q({ limit: 20, offset: 6_000 })}`),
    );
    expect(page.referenceValues).toHaveLength(3);
    expect(page.totalRows).toBe(STATIONS);
    const readings = JSON.parse(await text(reader, '/applications/observatory/data/readings/json'));
    expect(readings.rows).toHaveLength(READ_STATIONS * 5);
    expect(readings.totalRows).toBe(READ_STATIONS * 5);
  });
});

describe('a download for a spreadsheet', () => {
  it('prefixes the cells a spreadsheet would run, keeps numbers, and changes nothing by default', async () => {
    const exact = readCsv(await text(data.admin, '/applications/observatory/references/stations/csv'), ';').slice(1);
    expect(exact.slice(0, HOSTILE.length).map((row) => row[1])).toEqual(HOSTILE);
    const safe = readCsv(
      await text(data.admin, '/applications/observatory/references/stations/csv?spreadsheetSafe=true'),
      ';',
    ).slice(1);
    expect(safe.slice(0, HOSTILE.length).map((row) => row[1])).toEqual(HOSTILE.map((value) => `'${value}`));
    expect(safe.slice(HOSTILE.length).every((row, index) => row[1] === exact[HOSTILE.length + index][1])).toBe(true);
    const readings = readCsv(
      await text(data.admin, '/applications/observatory/data/readings/csv?spreadsheetSafe=true'),
      ';',
    ).slice(1);
    expect(readings.find((row) => row[0] === code(0))?.[2]).toBe('-20.5');
    const zip = unzipText(
      (await fetchBytes(data, '/applications/observatory/data/readings/zip?spreadsheetSafe=true')).bytes,
    );
    expect(zip['references/stations.csv']).toContain(`"'${HOSTILE[0].replace(/"/g, '""')}"`);
  });

  it('starts with a byte order mark, for Excel to read its accents, and only then', async () => {
    const startsWithMark = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const stations = '/applications/observatory/references/stations/csv';
    expect(startsWithMark((await fetchBytes(data, `${stations}?spreadsheetSafe=true`)).bytes)).toBe(true);
    expect(startsWithMark((await fetchBytes(data, stations)).bytes)).toBe(false);
    expect(startsWithMark((await fetchBytes(data, `${stations}?form=upload`)).bytes)).toBe(false);
    const zip = unzipSync(
      (await fetchBytes(data, '/applications/observatory/data/readings/zip?spreadsheetSafe=true')).bytes,
    );
    const csvs = Object.entries(zip).filter(([name]) => name.endsWith('.csv'));
    expect(csvs.length).toBeGreaterThan(1);
    for (const [name, bytes] of csvs) expect(startsWithMark(bytes), name).toBe(true);
  });

  it('refuses an unknown component with a 400 before anything is sent, not a download cut short', async () => {
    for (const format of ['csv', 'zip', 'json']) {
      const answer = await data.admin.get(
        `/applications/observatory/references/stations/${format}${q({ componentFilters: [{ componentKey: 'nowhere', filters: ['x'] }] })}`,
      );
      expect(answer.status, format).toBe(400);
      expect(answer.body.code).toBe('UNKNOWN_COMPONENT');
    }
  });

  it('refuses a malformed choice with a 400', async () => {
    expect(
      (await data.admin.get('/applications/observatory/references/stations/csv?spreadsheetSafe=maybe')).status,
    ).toBe(400);
  });
});

describe('an export to load again (form=upload)', () => {
  const stations = '/applications/observatory/references/stations';
  const stationsRows = async () =>
    (await storedRows(data.admin, 'observatory', 'stations')).sort((a, b) => (a.naturalKey < b.naturalKey ? -1 : 1));

  it(
    'writes every row of a reference past the export page, under its import headers in every language, and loads again into the same rows',
    { timeout: 120_000 },
    async () => {
      const before = await stationsRows();
      const fr = await text(data.admin, `${stations}/csv${q({ outPut: { locale: 'fr' } })}&form=upload`);
      const en = await text(data.admin, `${stations}/csv${q({ outPut: { locale: 'en' } })}&form=upload`);
      expect(en).toBe(fr);
      const records = readCsv(fr, ';');
      // The import header `Nom`, where the readable English export writes its title `Name`.
      expect(records[0]).toEqual(['code', 'Nom', 'altitude', 'depth', 'opened', 'habitat', 'habitats']);
      expect(readCsv(await text(data.admin, `${stations}/csv${q({ outPut: { locale: 'en' } })}`), ';')[0][1]).toBe(
        'Name',
      );
      expect(records.slice(1)).toHaveLength(STATIONS);
      expect(records.slice(1, 1 + HOSTILE.length).map((row) => row[1])).toEqual(HOSTILE);
      const form = new FormData();
      form.append('file', new Blob([fr]), 'stations.csv');
      const loaded = await data.admin.post(stations, { body: form });
      expect(loaded.status, loaded.text.slice(0, 500)).toBe(201);
      expect(await stationsRows()).toEqual(before);
    },
  );

  it('gives a restricted reader their rows only, follows filters, and zips the references in the same form', async () => {
    const allText = await text(data.admin, '/applications/observatory/data/readings/csv?form=upload');
    const all = readCsv(allText, ';');
    expect(all[0]).toEqual(['station', 'day', 'value', 'note']);
    expect(all.slice(1)).toHaveLength(READ_STATIONS * DAYS);
    const mine = readCsv(await text(reader, '/applications/observatory/data/readings/csv?form=upload'), ';').slice(1);
    expect(mine).toHaveLength(READ_STATIONS * 5);
    expect(mine.every((row) => Number(row[1].slice(0, 2)) <= 5)).toBe(true);
    const query = { componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '0', to: '149' } }] };
    const filtered = readCsv(await text(data.admin, `${stations}/csv${q(query)}&form=upload`), ';').slice(1);
    expect(filtered.length).toBeGreaterThan(2_000);
    expect(filtered.every((row) => Number(row[2]) <= 149 && row[2] !== '')).toBe(true);
    const zip = unzipText((await fetchBytes(data, '/applications/observatory/data/readings/zip?form=upload')).bytes);
    expect(Object.keys(zip).sort()).toEqual(['readings.csv', 'references/stations.csv']);
    expect(zip['readings.csv']).toBe(allText);
    expect(readCsv(zip['references/stations.csv'], ';')[0][1]).toBe('Nom');
  });

  it('is never made safe for spreadsheets, and refuses a form it does not know', async () => {
    for (const format of ['csv', 'zip']) {
      const safe = await data.admin.get(`${stations}/${format}?form=upload&spreadsheetSafe=true`);
      expect([safe.status, safe.body.code], format).toEqual([400, 'UPLOAD_FORM_NOT_SPREADSHEET_SAFE']);
      const unknown = await data.admin.get(`${stations}/${format}?form=raw`);
      expect([unknown.status, unknown.body.code], format).toEqual([400, 'BAD_REQUEST']);
    }
  });
});

describe('a CSV export of a data type pointing to a large reference', () => {
  it(
    'writes the same file reading only the rows of the reference each page designates; a check reads it by pages',
    { timeout: 120_000 },
    async () => {
      const path = '/applications/observatory/data/readings/csv';
      const before = await text(data.admin, path);
      const db = data.server.server.ctx.db;
      const { id } = await db
        .selectFrom('applications')
        .select('id')
        .where('name', '=', 'observatory')
        .executeTakeFirstOrThrow();
      const more = Array.from({ length: 20_000 }, (_, index) => ({
        id: randomUUID(),
        application_id: id,
        data_name: 'stations',
        natural_key: `far${String(index).padStart(5, '0')}`,
        hierarchical_key: `stationsKfar${String(index).padStart(5, '0')}`,
        values: JSON.stringify({ code: `far${index}`, Nom: `Far ${index}` }),
      }));
      for (let start = 0; start < more.length; start += 1_000)
        await db
          .insertInto('data_rows')
          .values(more.slice(start, start + 1_000))
          .execute();
      expect(await refreshCount(db, id, 'stations')).toBe(STATIONS + more.length);

      const [after, , rowsRead] = await statementsOf(db, () => text(data.admin, path), 'data_rows');
      expect(after).toBe(before);
      // The readings (unless kept from the first export), and for each page of them the stations it names, twice
      // (them, then the rows their spellings may name): not the reference's 26,003 rows.
      expect(rowsRead).toBeLessThanOrEqual(READ_STATIONS * DAYS + 2 * READ_STATIONS);
      const [restricted, , restrictedRowsRead] = await statementsOf(db, () => text(reader, path), 'data_rows');
      expect(readCsv(restricted, ';').slice(1)).toHaveLength(READ_STATIONS * 5);
      expect(restrictedRowsRead).toBeLessThanOrEqual(READ_STATIONS * 5 + 2 * READ_STATIONS);

      // A file checked against the stations reads them all, a page at a time: the last page too. Every statement
      // counted, whatever table it names (the reads are written as SQL).
      const form = new FormData();
      form.append('file', new Blob(['station;day;value;note\nfar19999;11/06/2024;1.5;\n']), 'far.csv');
      const [upload, , , largest] = await statementsOf(db, () =>
        data.admin.post('/applications/observatory/data/readings', { body: form }),
      );
      expect(upload.status, upload.text).toBe(201);
      expect(largest).toBeLessThanOrEqual(REFERENCE_READ_PAGE);
    },
  );
});
