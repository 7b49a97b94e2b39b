/**
 * Large entries under traffic (issue 11): an entry filtered by interval gets an index of its own, built in the
 * background, and answers the same rows before and after; a file sent again unchanged writes nothing and keeps
 * what was read of the entry; an upload still being received holds no database connection, so pages are answered
 * meanwhile (on the embedded database, which has only one), and does not hold other uploads back for long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { uploadsWaitingForBytes } from '../../server/services/uploadLanes.ts';
import {
  HABITATS_CSV,
  OBSERVATORY_YAML,
  createApplication,
  q,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

let data: DataServer;
/** More rows than an entry needs to get indexes for its filters (INDEXED_FROM_ROWS). */
const STATIONS = 6_000;

function stationsCsv(altitudeShift = 0): string {
  const lines = ['code;Nom;altitude;depth;opened;habitat;habitats'];
  for (let index = 0; index < STATIONS; index += 1) {
    const day = `${String(1 + (index % 28)).padStart(2, '0')}/${String(1 + (index % 12)).padStart(2, '0')}/${2010 + (index % 10)}`;
    lines.push(
      `st${String(index).padStart(5, '0')};Station ${index};${((index * 7) % 4000) + altitudeShift};${index % 100};${day};lake;lake,meadow`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const db = () => data.server.server.ctx.db;

async function filterIndexes(): Promise<Array<{ name: string; valid: boolean }>> {
  const result = await sql<{ name: string; valid: boolean }>`
    select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname like 'data_rows_filter_%' order by c.relname`.execute(db());
  return result.rows;
}

async function entryVersion(): Promise<number> {
  const row = await db()
    .selectFrom('entry_counts')
    .select('version')
    .where('data_name', '=', 'stations')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

const page = async (query: object) => {
  const answer = await data.admin.get(`/applications/observatory/references/stations${q(query)}`);
  expect(answer.status, answer.text).toBe(200);
  const body = answer.body as { totalRows: number; referenceValues: Array<{ naturalKey: string }> };
  return { total: body.totalRows, keys: body.referenceValues.map((row) => row.naturalKey) };
};

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  expect((await uploadReference(data.admin, 'observatory', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
  const loaded = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv());
  expect(loaded.status, loaded.text).toBe(201);
}, 120_000);
afterAll(() => data?.server.close());

describe('a large entry', () => {
  it('gets an index for each component it is filtered on by interval, and answers the same rows with it', async () => {
    const queries = [
      {
        componentFilters: [{ componentKey: 'altitude', intervalValues: { from: '1000', to: '1100' } }],
        offset: 20,
        limit: 10,
      },
      {
        componentFilters: [{ componentKey: 'opened', intervalValues: { from: '2012-03-01', to: '2012-06-30' } }],
        limit: 10,
      },
      {
        componentFilters: [{ componentKey: 'label', intervalValues: { from: 'Station 10', to: 'Station 11' } }],
        limit: 5,
      },
    ];
    expect(await filterIndexes()).toEqual([]);
    const before = [];
    for (const query of queries) before.push(await page(query));
    expect(before[0].total).toBeGreaterThan(100);
    expect(before[0].keys).toHaveLength(10);
    // A concurrent build lists its index at once, marked valid only when built.
    const allBuilt = async () => {
      const indexes = await filterIndexes();
      return indexes.length === queries.length && indexes.every((index) => index.valid);
    };
    for (let attempt = 0; !(await allBuilt()) && attempt < 400; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const built = await filterIndexes();
    expect(built).toHaveLength(queries.length);
    expect(built.every((index) => index.valid)).toBe(true);

    // A write makes every kept result old: the pages below are read again, through the new indexes.
    const shifted = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv(1));
    expect(shifted.status, shifted.text).toBe(201);
    const restored = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv());
    expect(restored.status, restored.text).toBe(201);
    const after = [];
    for (const query of queries) after.push(await page(query));
    expect(after).toEqual(before);
  }, 120_000);

  it('takes a file sent again unchanged without writing it: the entry keeps its version and its rows', async () => {
    const version = await entryVersion();
    const idsBefore = await db()
      .selectFrom('data_rows')
      .select(['id', 'updated_at'])
      .where('data_name', '=', 'stations')
      .orderBy('natural_key')
      .execute();
    const again = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv());
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual({
      referenceType: 'stations',
      lineCount: STATIONS,
      added: 0,
      replaced: STATIONS,
      totalRows: STATIONS,
    });
    expect(await entryVersion()).toBe(version);
    const idsAfter = await db()
      .selectFrom('data_rows')
      .select(['id', 'updated_at'])
      .where('data_name', '=', 'stations')
      .orderBy('natural_key')
      .execute();
    expect(idsAfter).toEqual(idsBefore);

    const oneChanged = stationsCsv().replace('st00003;Station 3;21;', 'st00003;Station 3;22;');
    expect((await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', oneChanged)).status).toBe(201);
    expect(await entryVersion()).toBe(version + 1);
    const rows = await db()
      .selectFrom('data_rows')
      .select(['natural_key', 'values', 'updated_at'])
      .where('data_name', '=', 'stations')
      .orderBy('natural_key')
      .execute();
    const rewritten = rows.filter((row, index) => row.updated_at.getTime() !== idsBefore[index].updated_at.getTime());
    expect(rewritten.map((row) => [row.natural_key, (row.values as { altitude: number }).altitude])).toEqual([
      ['st00003', 22],
    ]);
  }, 120_000);

  it('answers pages, and takes other uploads, while an upload is still being received', async () => {
    const encoder = new TextEncoder();
    const boundary = '----terrain-slow-upload';
    let sendRest!: () => void;
    const rest = new Promise<void>((resolve) => (sendRest = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stations.csv"\r\nContent-Type: text/csv\r\n\r\n`,
          ),
        );
        controller.enqueue(encoder.encode(stationsCsv().split('\n').slice(0, 101).join('\n') + '\n'));
        await rest;
        controller.enqueue(encoder.encode(`st90000;Late station;100;1;01/01/2020;lake;lake\n\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const upload = fetch(`${data.server.url}/api/v1/applications/observatory/references/stations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    await expect
      .poll(uploadsWaitingForBytes, { message: 'the server reads the upload and waits for the rest' })
      .toBe(1);
    const read = await page({ limit: 3 });
    expect(read.keys).toEqual(['st00000', 'st00001', 'st00002']);
    // The slow upload holds the one upload lane until it has waited a second for bytes; then another runs beside it.
    const other = await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv());
    expect(other.status, other.text).toBe(201);
    sendRest();
    const answer = await upload;
    expect(answer.status, await answer.clone().text()).toBe(201);
    expect(await answer.json()).toMatchObject({ lineCount: 101, totalRows: STATIONS + 1 });
  }, 120_000);
});
