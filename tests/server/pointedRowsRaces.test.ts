/**
 * A data file is checked against the reference rows read when its upload begins and written once it has wholly
 * arrived: a reference row deleted, or moved under another parent, in between (by another person, on another
 * instance) must not leave the file's rows pointing to a key no row has (pointedRows.ts). The file is then refused
 * whole with 409 POINTED_ROWS_CHANGED; a deletion sent while the file's rows are being written waits for them and
 * is refused (REFERENCED_ROWS). On PostgreSQL the reference is changed through a second instance in its own process
 * (in one process, instances share their entry gates and upload lanes); on the embedded database through the one
 * instance, the upload held by a client that stops sending its bytes (a tablet on a poor network).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from './httpClient.ts';
import {
  STATIONS,
  entryWriteUnderWay,
  heldUpload,
  readingsCsv,
  referencesRead,
  startRacingInstances,
  observatoryWithStations,
  pointingNowhere,
  stationsCsv,
} from './raceFixtures.ts';
import { POINTED_KEYS_BATCH } from '../../server/services/pointedRows.ts';
import { createApplication, csvForm, OBSERVATORY_YAML, uploadReference, type DataServer } from './dataFixtures.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const MASSIFS_YAML = readFileSync(path.join(fixtures, 'configurations/massifs.yaml'), 'utf8');
const PLACES_CSV = readFileSync(path.join(fixtures, 'csv/massifs-places.csv'), 'utf8');

const SIGHTINGS = 20_000;

let data: DataServer;
let elsewhere: HttpClient;
let close: () => Promise<void>;
let applications = 0;

beforeAll(async () => {
  ({ data, elsewhere, close } = await startRacingInstances());
}, 120_000);

afterAll(() => close?.());

function sightingsCsv(): string {
  const lines = ['place;day;birds'];
  const start = Date.UTC(1950, 0, 1);
  for (let index = 0; index < SIGHTINGS; index++) {
    const day = new Date(start + index * 86_400_000);
    const date = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
    lines.push(`aiguilles;${date};${index % 50}`);
  }
  return lines.join('\n') + '\n';
}

function observatory(): Promise<string> {
  const name = `pointed${++applications}`;
  return observatoryWithStations(data, name, OBSERVATORY_YAML.replace('OA_name: observatory', `OA_name: ${name}`));
}

async function massifs(): Promise<string> {
  const name = `pointedplaces${++applications}`;
  await createApplication(data.admin, name, MASSIFS_YAML.replace(/OA_name: massifs/, `OA_name: ${name}`));
  const places = await uploadReference(data.admin, name, 'places', 'p.csv', PLACES_CSV);
  expect(places.status, places.text).toBe(201);
  return name;
}

async function rowCount(application: string, dataName: string): Promise<number> {
  const db = data.server.server.ctx.db;
  const found = await sql<{ count: number }>`
    select count(*)::int as count from data_rows join applications on applications.id = data_rows.application_id
    where applications.name = ${application} and data_name = ${dataName}`.execute(db);
  return found.rows[0].count;
}

describe('a reference row changed while a data file pointing to it is stored', () => {
  it('refuses the file when a station it names is deleted after its upload began', async () => {
    const application = await observatory();
    const read = referencesRead(data, 'readings');
    const upload = heldUpload(data, `/applications/${application}/data/readings`, readingsCsv());
    await read;
    const deleted = await elsewhere.delete(
      `/applications/${application}/references/stations?naturalKey=st${STATIONS - 1}`,
    );
    expect(deleted.status, deleted.text).toBe(200);
    upload.release();
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(409);
    expect(JSON.parse(answer.text).code).toBe('POINTED_ROWS_CHANGED');
    expect(await rowCount(application, 'readings')).toBe(0);
    expect(await pointingNowhere(data, application, 'readings')).toBe(0);
  }, 300_000);

  it('refuses the file when a place it names is moved under another parent after its upload began', async () => {
    const application = await massifs();
    const read = referencesRead(data, 'sightings');
    const upload = heldUpload(data, `/applications/${application}/data/sightings`, sightingsCsv());
    await read;
    const moved = await elsewhere.post(`/applications/${application}/references/places`, {
      body: csvForm('p2.csv', 'code;within\naiguilles;vanoise\n'),
    });
    expect(moved.status, moved.text).toBe(201);
    upload.release();
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(409);
    expect(JSON.parse(answer.text).code).toBe('POINTED_ROWS_CHANGED');
    // Nothing left on the former key for a reader of the Mont Blanc to read.
    expect(await rowCount(application, 'sightings')).toBe(0);
    expect(await pointingNowhere(data, application, 'sightings')).toBe(0);
  }, 300_000);

  it('finds a deleted station among more pointed keys than one statement looks for, and names it', async () => {
    const name = `pointedmany${++applications}`;
    await createApplication(data.admin, name, OBSERVATORY_YAML.replace('OA_name: observatory', `OA_name: ${name}`));
    // Each reading names another station: the key deleted comes in the write's last batch of keys.
    const stations = POINTED_KEYS_BATCH + 2_000;
    const loaded = await uploadReference(data.admin, name, 'stations', 's.csv', stationsCsv(stations));
    expect(loaded.status, loaded.text).toBe(201);
    const readings = [
      'station;day;value;note',
      ...Array.from({ length: stations }, (_, i) => `st${i};01/06/2024;${i};`),
    ];
    const read = referencesRead(data, 'readings');
    const upload = heldUpload(data, `/applications/${name}/data/readings`, readings.join('\n') + '\n');
    await read;
    const deleted = await elsewhere.delete(`/applications/${name}/references/stations?naturalKey=st${stations - 1}`);
    expect(deleted.status, deleted.text).toBe(200);
    upload.release();
    const answer = await upload.answer;
    expect(answer.status, answer.text).toBe(409);
    expect(JSON.parse(answer.text)).toMatchObject({
      code: 'POINTED_ROWS_CHANGED',
      params: { keys: `stationsKst${stations - 1}`, more: 'no' },
    });
    expect(await rowCount(name, 'readings')).toBe(0);
  }, 300_000);

  it.runIf(process.env.DATABASE_URL)(
    'makes a deletion sent while the rows are written wait for them, then refuses it',
    async () => {
      const application = await observatory();
      const upload = data.admin.post(`/applications/${application}/data/readings`, {
        body: csvForm('r.csv', readingsCsv()),
      });
      // The write holds its entry from its first batch to its commit.
      await entryWriteUnderWay(data);
      const deleted = await elsewhere.delete(
        `/applications/${application}/references/stations?naturalKey=st${STATIONS - 1}`,
      );
      const stored = await upload;
      expect(stored.status, stored.text).toBe(201);
      expect(deleted.status, deleted.text).toBe(409);
      expect(deleted.body.code).toBe('REFERENCED_ROWS');
      expect(await pointingNowhere(data, application, 'readings')).toBe(0);
    },
    300_000,
  );
});
