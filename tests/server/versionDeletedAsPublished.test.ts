/**
 * A version published while its deletion waited for the entry (a publication job holds it) is deleted as the
 * published version it is then, not as the version it was when the request came: the answer says it was published,
 * and the rights asked are those of a published version (publishing and deleting versions come together in grants,
 * so no grant tells them apart: the manager deletes here). The entry is held by a session of the test, as a
 * publication holds it (PostgreSQL: the embedded database has one session, whose transactions follow one another).
 */
import type pg from 'pg';
import { sessionsWaiting, startServerWithHolder } from './raceFixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from '../bench/versionedData.ts';
import { createApplication, csvForm, uploadReference, type DataServer } from './dataFixtures.ts';

let data: DataServer;
let holder: pg.Client;

let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startServerWithHolder();
  ({ data, close } = started);
  // Only on PostgreSQL, where the tests run.
  if (started.holder) holder = started.holder;
}, 120_000);

afterAll(() => close?.());

describe.runIf(process.env.DATABASE_URL)('a version published while its deletion waits', () => {
  it('is deleted as published, and said so', async () => {
    await createApplication(data.admin, 'stations', VERSIONED_YAML);
    expect((await uploadReference(data.admin, 'stations', 'sites', 'sites.csv', sitesCsv())).status).toBe(201);
    const deposited = await data.admin.post('/applications/stations/data/readings', {
      body: csvForm('readings.csv', readingsCsv(2_000, 1, 2023).text, yearDataset(1, 2023)),
    });
    expect(deposited.status, deposited.text).toBe(201);
    const fileId = deposited.body.fileId as string;
    const { id: applicationId } = (await data.admin.get('/applications/stations')).body as { id: string };

    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${applicationId}/readings`]);
    const deletion = data.admin.delete(`/applications/stations/file/${fileId}`);
    while ((await sessionsWaiting(holder)) === 0);
    await holder.query('update deposit_files set published = true where id = $1', [fileId]);
    await holder.query('commit');

    const deleted = await deletion;
    expect([deleted.status, deleted.body], deleted.text).toEqual([200, { id: fileId, wasPublished: true }]);
    expect((await holder.query('select 1 from deposit_files where id = $1', [fileId])).rows).toEqual([]);
  }, 120_000);
});
