import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexesBuilt } from '../../server/services/filterIndexes.ts';
import {
  createApplication,
  csvForm,
  HABITATS_CSV,
  OBSERVATORY_YAML,
  q,
  STATIONS_CSV,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

/**
 * Long texts once the indexes of searches and filters exist: their B-tree entries hold at most about 2,700 bytes
 * and a text-search vector a megabyte, and a label or a note longer than that failed the write of its whole file
 * with a 500. The indexes hold the beginning of such texts; searches and filters still find them whole.
 */
const ROWS = 5_200;
/**
 * Words of random letters: a long value as a compressor cannot fold (the database compresses index entries, and a
 * text repeating itself would have fitted).
 */
const prose = (length: number, seed: number) => {
  let state = seed;
  let text = '';
  while (text.length < length) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += state % 9 === 0 ? ' ' : String.fromCharCode(97 + (state % 26));
  }
  return text.replace(/ +/g, ' ').trim();
};

let data: DataServer;
const APP = '/applications/observatory';

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  const habitats = Array.from({ length: ROWS }, (_, i) => `h${i},Habitat ${i},Habitat ${i}`);
  expect(
    (
      await uploadReference(
        data.admin,
        'observatory',
        'habitats',
        'habitats.csv',
        `${HABITATS_CSV}${habitats.join('\n')}\n`,
      )
    ).status,
  ).toBe(201);
  expect((await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', STATIONS_CSV)).status).toBe(201);
  const readings = Array.from(
    { length: ROWS },
    (_, i) =>
      `anterne;${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/${2000 + Math.floor(i / 252)};${i};note ${i}`,
  );
  const loaded = await data.admin.post(`${APP}/data/readings`, {
    body: csvForm('readings.csv', `station;day;value;note\n${readings.join('\n')}\n`),
  });
  expect(loaded.status, loaded.text).toBe(201);
  // A filter on the notes asks for their index; the loads asked for the labels'.
  expect(
    (
      await data.admin.get(
        `${APP}/data/readings/json${q({ limit: 10, componentFilters: [{ componentKey: 'note', intervalValues: { from: 'a', to: 'z' } }] })}`,
      )
    ).status,
  ).toBe(200);
  await indexesBuilt();
  const built = await sql<{ name: string }>`select indexname as name from pg_indexes
    where indexname like 'data_rows_filter_%' or indexname like 'data_rows_search_%'`.execute(
    data.server.server.ctx.db,
  );
  expect(built.rows.length).toBeGreaterThanOrEqual(3);
}, 300_000);
afterAll(() => data?.server.close());

describe('long texts under the indexes of searches and filters', () => {
  it('loads labels of thousands and hundreds of thousands of characters, and finds them by their words', async () => {
    const long = `Lande ${prose(3_000, 1)}`;
    const huge = `Tourbière ${prose(450_000, 2)}`;
    const loaded = await uploadReference(
      data.admin,
      'observatory',
      'habitats',
      'long.csv',
      `code,label_fr,label_en\nlong,${long},${long}\nhuge,${huge},${huge}\n`,
    );
    expect(loaded.status, loaded.text.slice(0, 300)).toBe(201);
    const found = async (text: string) =>
      (
        await data.admin.get(`${APP}/references/habitats/suggestions?q=${encodeURIComponent(text)}&lang=fr`)
      ).body.suggestions.map((s: { naturalKey: string }) => s.naturalKey);
    expect(await found('lande')).toEqual(['long']);
    expect(await found('tourbiere')).toEqual(['huge']);
    // A search as long as a search may be, as long as what the index holds of the labels.
    expect(await found(long.slice(0, 200))).toEqual(['long']);
  });

  it('refuses a cell of more than half a million characters at its line, storing nothing', async () => {
    const before = (await data.admin.get(`${APP}/data/readings/json${q({ limit: 1 })}`)).body.totalRows;
    const refused = await data.admin.post(`${APP}/data/readings`, {
      body: csvForm(
        'huge.csv',
        `station;day;value;note\nvallot;03/01/2030;1;ok\nvallot;04/01/2030;2;${prose(2_000_000, 4)}\n`,
      ),
    });
    expect(refused.status, refused.text.slice(0, 300)).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        lineNumber: 3,
        code: 'invalidFormat',
        params: { reason: 'fieldTooLong', columnNumber: 4, max: 500_000 },
      }),
    ]);
    // The answer names the line, it does not echo the cell.
    expect(refused.text.length).toBeLessThan(10_000);
    expect((await data.admin.get(`${APP}/data/readings/json${q({ limit: 1 })}`)).body.totalRows).toBe(before);
  });

  it('loads notes of thousands of characters, and a text interval finds them in the order of code points', async () => {
    const note = `zèbre ${prose(4_000, 3)}`;
    const loaded = await data.admin.post(`${APP}/data/readings`, {
      body: csvForm('long.csv', `station;day;value;note\nvallot;01/01/2030;1;${note}\nvallot;02/01/2030;2;Zèbre\n`),
    });
    expect(loaded.status, loaded.text.slice(0, 300)).toBe(201);
    const interval = async (from: string, to: string) =>
      (
        await data.admin.get(
          `${APP}/data/readings/json${q({ limit: 10, componentFilters: [{ componentKey: 'note', intervalValues: { from, to } }] })}`,
        )
      ).body.rows.map((row: { values: { note: string } }) => row.values.note.slice(0, 6));
    expect(await interval('zè', 'zèc')).toEqual(['zèbre ']);
    // Capitals come before small letters in code points, as the device compares them offline.
    expect(await interval('Y', 'Z\uffff')).toEqual(['Zèbre']);
    expect(await interval(note.slice(0, 300), note)).toEqual(['zèbre ']);
    expect(await interval(note, `${note}!`)).toEqual(['zèbre ']);
  });
});
