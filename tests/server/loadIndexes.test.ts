/**
 * The interval filters' indexes made by a load: on the embedded database, whose one connection an index build
 * holds, a large write into a small entry asks for the index of each number and date it stores before its rows go
 * in (references, data types without versions, publications), so that the first filter on the grown entry builds
 * nothing. On PostgreSQL the first filter asks for its index, built concurrently while everyone is answered.
 * Either way the filters answer the rows the file holds.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterIndexName, intervalExpression } from '../../server/services/filterIndexes.ts';
import { storedKeys } from '../../server/services/rowQueries.ts';
import type { DataEntry } from '../../src/domain/configuration/model.ts';
import {
  APPLICATION,
  VERSIONED_YAML,
  generateMeasures,
  readingsCsv,
  sitesCsv,
  yearDataset,
} from '../bench/versionedData.ts';
import {
  OBSERVATORY_YAML,
  HABITATS_CSV,
  createApplication,
  csvForm,
  modelOf,
  q,
  startDataServer,
  uploadReference,
  waitForJob,
  type DataServer,
} from './dataFixtures.ts';

/** Above INDEXED_FROM_ROWS, and many of the embedded database's batches. */
const ROWS = 6_000;

let data: DataServer;
const db = () => data.server.server.ctx.db;
const embedded = () => !data.server.databaseUrl;

async function filterIndexes(): Promise<Array<{ name: string; valid: boolean }>> {
  const result = await sql<{ name: string; valid: boolean }>`
    select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname like 'data_rows_filter_%' order by c.relname`.execute(db());
  return result.rows;
}

/** The names of the indexes of an entry's numbers and dates. */
async function intervalIndexesOf(application: string, entryName: string): Promise<string[]> {
  const model = await modelOf(data.admin, application);
  const { id } = (await data.admin.get(`/applications/${application}`)).body as { id: string };
  const entry = model.data.find((candidate) => candidate.name === entryName) as DataEntry;
  return [...storedKeys(entry)]
    .filter(([, checker]) => intervalExpression(checker) !== 'text')
    .map(([component, checker]) =>
      filterIndexName(id, entryName, { component, expression: intervalExpression(checker) }),
    );
}

/** Stations st0000…st<count - 1>. */
function stationsCsv(count: number): string {
  const lines = ['code;Nom;altitude;depth;opened;habitat;habitats'];
  for (let index = 0; index < count; index += 1)
    lines.push(`st${String(index).padStart(4, '0')};S ${index};${index};1;01/01/2020;lake;lake`);
  return `${lines.join('\n')}\n`;
}

/** `days` readings of each of the first `stations` stations, from the first of January 2024. */
function observatoryReadings(stations: number, days: number): string {
  const lines = ['station;day;value;note'];
  for (let station = 0; station < stations; station += 1)
    for (let day = 0; day < days; day += 1) {
      const date = new Date(Date.UTC(2024, 0, 1 + day));
      const text = `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/2024`;
      lines.push(`st${String(station).padStart(4, '0')};${text};${day + station / 100};`);
    }
  return `${lines.join('\n')}\n`;
}

const total = async (path: string) => {
  const answer = await data.admin.get(path);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { totalRows: number }).totalRows;
};

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, APPLICATION, VERSIONED_YAML);
  expect((await uploadReference(data.admin, APPLICATION, 'sites', 'sites.csv', sitesCsv())).status).toBe(201);
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  expect((await uploadReference(data.admin, 'observatory', 'habitats', 'habitats.csv', HABITATS_CSV)).status).toBe(201);
  expect((await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', stationsCsv(60))).status).toBe(
    201,
  );
}, 120_000);
afterAll(() => data?.server.close());

describe('the interval filters of a large load', () => {
  it('are indexed by the load of a reference on the embedded database, and answer its rows', async () => {
    const loaded = await uploadReference(data.admin, APPLICATION, 'measures', 'measures.csv', generateMeasures(ROWS));
    expect(loaded.status, loaded.text).toBe(201);
    const expected = await intervalIndexesOf(APPLICATION, 'measures');
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const made = embedded() ? expected.sort() : [];
    expect((await filterIndexes()).map((index) => index.name)).toEqual(made);

    const rows = generateMeasures(ROWS)
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(';')[4]));
    const filter = { componentKey: 'value', intervalValues: { from: '100', to: '200' } };
    const inside = rows.filter((value) => value >= 100 && value <= 200).length;
    expect(inside).toBeGreaterThan(100);
    expect(
      await total(`/applications/${APPLICATION}/references/measures${q({ componentFilters: [filter], limit: 10 })}`),
    ).toBe(inside);
    // On the embedded database the filter found its index built: it asked for no other.
    if (embedded()) expect((await filterIndexes()).map((index) => index.name)).toEqual(made);
  }, 120_000);

  it('are indexed by the load of a data type without versions on the embedded database', async () => {
    const before = (await filterIndexes()).map((index) => index.name);
    const loaded = await data.admin.post('/applications/observatory/data/readings', {
      body: csvForm('readings.csv', observatoryReadings(60, ROWS / 60)),
    });
    expect(loaded.status, loaded.text).toBe(201);
    const made = embedded() ? await intervalIndexesOf('observatory', 'readings') : [];
    expect((await filterIndexes()).map((index) => index.name)).toEqual([...before, ...made].sort());
    const filter = { componentKey: 'day', intervalValues: { from: '2024-01-01', to: '2024-01-10' } };
    expect(
      await total(`/applications/observatory/data/readings/json${q({ componentFilters: [filter], limit: 10 })}`),
    ).toBe(60 * 10);
  }, 120_000);

  it('are indexed by the publication of a large version on the embedded database', async () => {
    const before = (await filterIndexes()).map((index) => index.name);
    const { text, rows } = readingsCsv(ROWS, 1, 2021);
    const deposited = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      body: csvForm('readings.csv', text, yearDataset(1, 2021)),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const fileId = deposited.body.fileId as string;
    // Deposited, not yet published: no rows, no index.
    expect((await filterIndexes()).map((index) => index.name)).toEqual(before);
    const asked = await data.admin.post(`/applications/${APPLICATION}/data/readings`, {
      json: { fileid: fileId, topublish: true },
    });
    expect(asked.status, asked.text).toBe(202);
    const job = await waitForJob(data.admin, APPLICATION, fileId);
    expect(job.job.status, JSON.stringify(job)).toBe('done');
    const made = embedded() ? await intervalIndexesOf(APPLICATION, 'readings') : [];
    const indexes = await filterIndexes();
    expect(indexes.map((index) => index.name)).toEqual([...before, ...made].sort());
    expect(indexes.every((index) => index.valid)).toBe(true);

    const inside = text
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .filter((line) => [2, 3].includes(Number(line.split(';')[5]))).length;
    expect(rows).toBe(ROWS);
    const filter = { componentKey: 'quality', intervalValues: { from: '2', to: '3' } };
    expect(
      await total(`/applications/${APPLICATION}/data/readings/json${q({ componentFilters: [filter], limit: 10 })}`),
    ).toBe(inside);
  }, 120_000);
});
