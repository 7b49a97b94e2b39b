/**
 * A configuration update removing a component while a version carrying it is published (race audit M5 on the
 * publication path): whichever goes first, the model and the published rows must agree — never published rows
 * holding a component the model no longer has. The update goes through another instance in its own process on
 * PostgreSQL (it waits for the publication, which holds the configuration shared), through the one instance on the
 * embedded database (the publication's check waits for it; the publication is then refused).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VERSIONED_YAML, readingsCsv, yearDataset } from '../bench/versionedData.ts';
import type { HttpClient } from './httpClient.ts';
import { racingStations, whenReferencesRead } from './raceFixtures.ts';
import { csvForm, waitForJob, type DataServer } from './dataFixtures.ts';

const SITE = 5;
const YEAR = 2023;
const ROWS = 6_000;
const QUALITY = '      quality: {OA_checker: {OA_name: OA_integer}}\n';

let data: DataServer;
let elsewhere: HttpClient;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ data, elsewhere, close } = await racingStations());
}, 120_000);

afterAll(() => close?.());

const withoutQuality = () => {
  expect(VERSIONED_YAML).toContain(QUALITY);
  expect(VERSIONED_YAML).toContain('OA_name: stations, OA_version: 1.0.0');
  return VERSIONED_YAML.replace(QUALITY, '').replace(
    'OA_name: stations, OA_version: 1.0.0',
    'OA_name: stations, OA_version: 2.0.0',
  );
};

async function componentsOfReadings(): Promise<string[]> {
  const answer = (await data.admin.get('/applications/stations?filter=CONFIGURATION')).body;
  const model = typeof answer.configuration === 'string' ? JSON.parse(answer.configuration) : answer.configuration;
  return model.data
    .find((entry: { name: string }) => entry.name === 'readings')
    .components.map((component: { key: string }) => component.key);
}

it('never leaves published rows holding a component the update removed', async () => {
  const deposited = await data.admin.post('/applications/stations/data/readings', {
    body: csvForm('readings.csv', readingsCsv(ROWS, SITE, YEAR).text, yearDataset(SITE, YEAR)),
  });
  expect(deposited.status, deposited.text).toBe(201);
  const fileId = deposited.body.fileId as string;

  const update = whenReferencesRead(data, () =>
    elsewhere.post('/applications/stations/configuration?confirmDataLoss=true', {
      body: csvForm('stations.yaml', withoutQuality()),
    }),
  );
  const requested = await data.admin.post('/applications/stations/data/readings', {
    json: { fileid: fileId, topublish: true },
  });
  expect(requested.status, requested.text).toBe(202);
  await update.started;
  const state = await waitForJob(data.admin, 'stations', fileId);
  const updated = (await update.done()) as { text: string };

  const db = data.server.server.ctx.db;
  const count = async (condition: ReturnType<typeof sql>) =>
    (await sql<{ count: number }>`select count(*)::int as count from data_rows where ${condition}`.execute(db)).rows[0]
      .count;
  const applied = updated.text.includes('"type":"result"');
  if (data.server.databaseUrl) {
    // The publication holds the configuration from its start: the update waits for it, then finds its rows — as a
    // loss it did not weigh (refused), or, weighed once they were published, as the loss it confirmed (applied).
    expect(state.job.status).toBe('done');
    if (!applied) expect(updated.text).toContain('APPLICATION_CHANGED_MEANWHILE');
    expect(await count(sql`file_id = ${fileId}`)).toBe(ROWS);
    expect((await componentsOfReadings()).includes('quality')).toBe(!applied);
  } else {
    // The update goes first: the publication finds the configuration changed and leaves no row.
    expect(applied, updated.text.slice(-300)).toBe(true);
    expect([state.job.status, state.job.error?.code]).toEqual(['failed', 'APPLICATION_CHANGED_MEANWHILE']);
    await expect.poll(() => count(sql`file_id = ${fileId}`), { timeout: 60_000 }).toBe(0);
    expect(await componentsOfReadings()).not.toContain('quality');
  }
  // The agreement that matters, either way: no row keeps a value of a component the model lost.
  if (applied) expect(await count(sql`data_name = 'readings' and values ? 'quality'`)).toBe(0);
}, 300_000);
