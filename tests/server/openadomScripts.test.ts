import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { plainUser, refusal } from './applicationFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * What scripts written for the newest OpenADOM call: references loaded and read under `data/{reference}`, a version
 * published by a form holding its `params` alone, every row of an unpaged JSON read. Sizes above every page size.
 */
const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));
const SPECIES = 2_500;
const DAYS = 1_200;

function form(fileName: string, bytes: Uint8Array | string, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), fileName);
  return data;
}

const speciesCsv = () =>
  ['code;name', ...Array.from({ length: SPECIES }, (_, i) => `sp${i};Espèce ${i}`)].join('\n') + '\n';

/** One count a day from 1 January 2020, so that the version's period holds them all. */
function countsCsv() {
  const lines = ['project;site;species;day;individuals'];
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < DAYS; i++) {
    const day = new Date(start + i * 86_400_000);
    const text = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
    lines.push(`alps;lac_blanc;sp${i % SPECIES};${text};${i}`);
  }
  return lines.join('\n') + '\n';
}

let server: TestServer;
let admin: HttpClient;

beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  const created = await admin.post('/applications/surveys', {
    body: form('surveys.yaml', file('configurations/surveys.yaml')),
  });
  expect(created.status, created.text).toBe(200);
  for (const [reference, csv] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
  ]) {
    const loaded = await admin.post(`/applications/surveys/data/${reference}`, { body: form(csv, file(`csv/${csv}`)) });
    expect(loaded.status, loaded.text).toBe(201);
  }
});
afterAll(() => server?.close());

describe('references under data/{reference}', () => {
  it('load a CSV file as under references/ and read every row back as JSON', async () => {
    const loaded = await admin.post('/applications/surveys/data/species', { body: form('species.csv', speciesCsv()) });
    expect(loaded.status, loaded.text).toBe(201);
    const all = await admin.get('/applications/surveys/data/species/json');
    expect(all.status).toBe(200);
    expect(all.body.referenceType).toBe('species');
    expect(all.body.totalRows).toBe(SPECIES);
    expect(all.body.referenceValues).toHaveLength(SPECIES);
    expect(new Set(all.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).size).toBe(SPECIES);
    const same = await admin.get('/applications/surveys/references/species/json');
    expect(same.body.referenceValues).toEqual(all.body.referenceValues);
    const page = await admin.get(
      `/applications/surveys/data/species/json?downloadDatasetQuery=${encodeURIComponent(JSON.stringify({ offset: 2_000, limit: 1_000 }))}`,
    );
    expect(page.body.totalRows).toBe(SPECIES);
    expect(page.body.referenceValues).toHaveLength(SPECIES - 2_000);
    const csv = await admin.get('/applications/surveys/data/species/csv');
    expect(csv.text.trim().split('\n')).toHaveLength(SPECIES + 1);
  });

  it('refuse a file with errors whole, a load without a file, an unknown name, a user without the right', async () => {
    const before = (await admin.get('/applications/surveys/data/sites/json')).body.totalRows;
    const broken = await admin.post('/applications/surveys/data/sites', {
      body: form('sites.csv', 'code;label\nnew_site;New\n;No code\n'),
    });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0]).toMatchObject({ lineNumber: 3 });
    expect((await admin.get('/applications/surveys/data/sites/json')).body.totalRows).toBe(before);
    const noFile = await admin.post('/applications/surveys/data/sites', { json: { topublish: true } });
    expect(noFile.status).toBe(415);
    expect(noFile.body).toEqual(refusal('MULTIPART_REQUIRED'));
    const unknown = await admin.post('/applications/surveys/data/nothing', { body: form('x.csv', 'code\nx\n') });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(refusal('NO_SUCH_DATA_TYPE'));
    const stranger = await plainUser(server);
    const refused = await stranger.client.post('/applications/surveys/data/sites', {
      body: form('sites.csv', 'code;label\nx;X\n'),
    });
    expect(refused.status).toBe(403);
    expect((await stranger.client.get('/applications/surveys/data/sites/json')).status).toBe(403);
  });
});

describe('a version published by a form of params alone', () => {
  it('is deposited, then published by multipart params without a file, and every row reads back unpaged', async () => {
    const dataset = {
      binaryfiledataset: {
        datatype: 'counts',
        requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
        from: '2020-01-01 00:00:00',
        to: '2023-12-31 23:59:59',
        comment: 'script',
      },
      topublish: false,
    };
    const deposited = await admin.post('/applications/surveys/data/counts', {
      body: form('alps~lac_blanc~01-01-2020~31-12-2023.csv', countsCsv(), dataset),
    });
    expect(deposited.status, deposited.text).toBe(201);
    expect((await admin.get('/applications/surveys/data/counts/json')).body.totalRows).toBe(0);

    const publication = new FormData();
    publication.append('params', JSON.stringify({ fileid: deposited.body.fileId, topublish: true }));
    const published = await admin.post('/applications/surveys/data/counts', { body: publication });
    expect(published.status, published.text).toBe(202);
    expect(published.body).toMatchObject({ fileId: deposited.body.fileId, topublish: true });
    await expect
      .poll(
        async () =>
          (await admin.get(`/applications/surveys/file/${deposited.body.fileId}/publication-state`)).body.job?.status,
        {
          timeout: 60_000,
        },
      )
      .toBe('done');

    const all = await admin.get('/applications/surveys/data/counts/json');
    expect(all.body.totalRows).toBe(DAYS);
    expect(all.body.rows).toHaveLength(DAYS);
    // Values pointing to reference rows are their natural keys, as the original answers; links keep the paths.
    const last = all.body.rows.find((row: { values: { individuals: number } }) => row.values.individuals === DAYS - 1);
    expect(last.values).toMatchObject({ project: 'alps', site: 'lac_blanc', species: `sp${(DAYS - 1) % SPECIES}` });
    expect(last.referenceKeys).toEqual({
      project: 'projectsKalps',
      site: 'sitesKlac_blanc',
      species: `speciesKsp${(DAYS - 1) % SPECIES}`,
    });
    const hierarchical = /K[a-z]/;
    expect(
      all.body.rows.filter((row: { values: Record<string, unknown> }) =>
        ['project', 'site', 'species'].some((key) => hierarchical.test(String(row.values[key]))),
      ),
    ).toEqual([]);
  });

  it('refuses a form of params naming no version, and malformed params, with 400', async () => {
    const empty = new FormData();
    empty.append('params', JSON.stringify({ topublish: true }));
    const missing = await admin.post('/applications/surveys/data/counts', { body: empty });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(refusal('MISSING_FILE'));
    const garbled = new FormData();
    garbled.append('params', '{"fileid": ');
    expect((await admin.post('/applications/surveys/data/counts', { body: garbled })).status).toBe(400);
    const stranger = await plainUser(server);
    const publication = new FormData();
    publication.append('params', JSON.stringify({ fileid: '00000000-0000-0000-0000-000000000000', topublish: true }));
    expect((await stranger.client.post('/applications/surveys/data/counts', { body: publication })).status).toBe(403);
  });
});
