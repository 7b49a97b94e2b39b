/**
 * A publication checks its version against the reference rows it reads when it begins, and writes its rows after:
 * a reference row the version names, deleted meanwhile, must not leave published rows pointing to a key no row has
 * (pointedRows.ts, as for every write; race audit M3 on the publication path). On PostgreSQL the publication holds
 * the pointed entries from its start: the deletion, sent through another instance in its own process, waits for it
 * and is refused (REFERENCED_ROWS). On the embedded database the deletion goes through between the publication's
 * steps: the publication is then refused (POINTED_ROWS_CHANGED) and leaves no row.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readingsCsv, siteCode, yearDataset } from '../bench/versionedData.ts';
import type { HttpClient } from './httpClient.ts';
import { racingStations, whenReferencesRead } from './raceFixtures.ts';
import { csvForm, waitForJob, type DataServer } from './dataFixtures.ts';

const SITE = 3;
const YEAR = 2022;
const ROWS = 6_000;

let data: DataServer;
let elsewhere: HttpClient;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ data, elsewhere, close } = await racingStations());
}, 120_000);

afterAll(() => close?.());

it('never publishes rows pointing to a site deleted once the publication has read the sites', async () => {
  const deposited = await data.admin.post('/applications/stations/data/readings', {
    body: csvForm('readings.csv', readingsCsv(ROWS, SITE, YEAR).text, yearDataset(SITE, YEAR)),
  });
  expect(deposited.status, deposited.text).toBe(201);
  const fileId = deposited.body.fileId as string;

  const deletion = whenReferencesRead(data, () =>
    elsewhere.delete(`/applications/stations/references/sites?naturalKey=${siteCode(SITE)}`),
  );
  const requested = await data.admin.post('/applications/stations/data/readings', {
    json: { fileid: fileId, topublish: true },
  });
  expect(requested.status, requested.text).toBe(202);
  await deletion.started;
  const state = await waitForJob(data.admin, 'stations', fileId);
  const deleted = (await deletion.done()) as { status: number; body: { code?: string } };

  const db = data.server.server.ctx.db;
  const count = async (condition: ReturnType<typeof sql>) =>
    (await sql<{ count: number }>`select count(*)::int as count from data_rows where ${condition}`.execute(db)).rows[0]
      .count;
  const versionRows = () => count(sql`file_id = ${fileId}`);
  const siteRows = () => count(sql`data_name = 'sites' and natural_key = ${siteCode(SITE)}`);
  if (data.server.databaseUrl) {
    expect(state.job.status).toBe('done');
    expect([deleted.status, deleted.body.code]).toEqual([409, 'REFERENCED_ROWS']);
    expect([await versionRows(), await siteRows()]).toEqual([ROWS, 1]);
  } else {
    expect(deleted.status).toBe(200);
    expect(state.job.status).toBe('failed');
    expect(state.job.error.code).toBe('POINTED_ROWS_CHANGED');
    expect(await siteRows()).toBe(0);
    // The rows written before the refusal are removed while the entry's readers wait (publication.ts).
    await expect.poll(versionRows, { timeout: 60_000 }).toBe(0);
  }
}, 300_000);
