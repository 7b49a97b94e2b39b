import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));

function form(fileName: string, bytes: Uint8Array, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

const dataset = (from: string, to: string, extra: object = {}) => ({
  binaryfiledataset: { datatype: 'counts', requiredAuthorizations: { project: 'alps', site: 'lac_blanc' }, from, to, comment: 'field day' },
  ...extra,
});

let server: TestServer;
let admin: HttpClient;

async function waitForJob(fileId: string) {
  for (let i = 0; i < 200; i++) {
    const state = await admin.get(`/applications/surveys/file/${fileId}/publication-state`);
    if (state.body.job && ['done', 'failed'].includes(state.body.job.status)) return state.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('job did not end');
}

async function deposit(name: string, params: object) {
  const answer = await admin.post('/applications/surveys/data/counts', { body: form(name.replace(/-v2\.csv$/, '.csv'), file(`csv/${name}`), params) });
  return answer;
}

const countRows = async () => (await admin.get('/applications/surveys/data/counts/json')).body.totalRows as number;

beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  await admin.post('/applications/surveys', { body: form('surveys.yaml', file('configurations/surveys.yaml')) });
  for (const [reference, csv] of [['projects', 'surveys-projects.csv'], ['sites', 'surveys-sites.csv'], ['species', 'surveys-species.csv']]) {
    expect((await admin.post(`/applications/surveys/references/${reference}`, { body: form(csv, file(`csv/${csv}`)) })).status).toBe(201);
  }
});
afterAll(() => server?.close());

describe('versioned deposits', () => {
  let first: string;

  it('keep a deposited version unpublished: it gives no rows', async () => {
    const answer = await deposit('alps~lac_blanc~01-06-2024~30-06-2024.csv', dataset('2024-06-01 00:00:00', '2024-06-30 23:59:59'));
    expect(answer.status).toBe(201);
    expect(answer.body.rowCount).toBe(3);
    first = answer.body.fileId;
    expect(await countRows()).toBe(0);
  });

  it('publish a version as a job', async () => {
    const answer = await admin.post('/applications/surveys/data/counts', { json: { fileid: first, topublish: true } });
    expect(answer.status).toBe(202);
    const state = await waitForJob(first);
    expect(state.job.status).toBe('done');
    expect(state.published).toBe(true);
    expect(await countRows()).toBe(3);
  });

  it('replace the published version of the same scope and period', async () => {
    const answer = await deposit('alps~lac_blanc~01-06-2024~30-06-2024-v2.csv', dataset('2024-06-01 00:00:00', '2024-06-30 23:59:59', { topublish: true }));
    expect(answer.status).toBe(202);
    expect((await waitForJob(answer.body.fileId)).published).toBe(true);
    expect(await countRows()).toBe(4);
    const versions = (await admin.get('/applications/surveys/filesOnRepository/counts')).body as Array<{ id: string; published: boolean }>;
    expect(versions.find((v) => v.id === first)?.published).toBe(false);
  });

  it('refuse publishing a version whose period overlaps a published one', async () => {
    const answer = await deposit('alps~lac_blanc~15-06-2024~15-07-2024.csv', dataset('2024-06-15', '2024-07-15 23:59:59', { topublish: true }));
    const state = await waitForJob(answer.body.fileId);
    expect(state.job.status).toBe('failed');
    expect(state.job.error.code).toBe('overlappingpublishedversion');
    expect(state.published).toBe(false);
    expect(await countRows()).toBe(4);
  });

  it('refuse rows outside the deposit period', async () => {
    const answer = await deposit('surveys-outside-period.csv', dataset('2024-06-01', '2024-06-30'));
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { code: string }) => e.code)).toContain('timerangeoutofinterval');
  });

  it('unpublish and delete', async () => {
    const versions = (await admin.get('/applications/surveys/filesOnRepository/counts')).body as Array<{ id: string; published: boolean }>;
    const published = versions.find((v) => v.published)!;
    await admin.post('/applications/surveys/data/counts', { json: { fileid: published.id, topublish: false } });
    await waitForJob(published.id);
    expect(await countRows()).toBe(0);
    const removed = await admin.delete(`/applications/surveys/file/${published.id}`);
    expect(removed.body).toEqual({ id: published.id, wasPublished: false });
  });

  it('answer the synthesis over ten intervals', async () => {
    const answer = await deposit('alps~lac_blanc~01-06-2024~30-06-2024.csv', dataset('2024-06-01', '2024-06-30 23:59:59', { topublish: true }));
    await waitForJob(answer.body.fileId);
    const synthesis = await admin.get('/applications/surveys/synthesis/counts');
    expect(synthesis.body.intervals).toHaveLength(10);
    expect(synthesis.body.variables.individuals.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    const zip = await admin.get('/applications/surveys/data/counts/zip');
    expect(zip.status).toBe(200);
  });
});

describe('a publication that fails half-way', () => {
  let faulty: TestServer;
  let client: HttpClient;
  beforeAll(async () => {
    faulty = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' }, faults: { publishFailAfterRows: 1 } });
    client = new HttpClient(faulty.url + '/api/v1');
    await client.post('/login', { form: { login: 'root', password: 'root-password' } });
    await client.post('/applications/surveys', { body: form('surveys.yaml', file('configurations/surveys.yaml')) });
    for (const [reference, csv] of [['projects', 'surveys-projects.csv'], ['sites', 'surveys-sites.csv'], ['species', 'surveys-species.csv']]) {
      await client.post(`/applications/surveys/references/${reference}`, { body: form(csv, file(`csv/${csv}`)) });
    }
  });
  afterAll(() => faulty?.close());

  it('leaves the previous state: no rows, nothing published', async () => {
    const answer = await client.post('/applications/surveys/data/counts', {
      body: form('alps~lac_blanc~01-06-2024~30-06-2024.csv', file('csv/alps~lac_blanc~01-06-2024~30-06-2024.csv'), dataset('2024-06-01', '2024-06-30 23:59:59', { topublish: true })),
    });
    expect(answer.status).toBe(202);
    let state;
    for (let i = 0; i < 200; i++) {
      state = (await client.get(`/applications/surveys/file/${answer.body.fileId}/publication-state`)).body;
      if (state.job && ['done', 'failed'].includes(state.job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state.job.status).toBe('failed');
    expect(state.job.error.code).toBe('INJECTED_FAILURE');
    expect(state.published).toBe(false);
    expect((await client.get('/applications/surveys/data/counts/json')).body.totalRows).toBe(0);
  });
});
