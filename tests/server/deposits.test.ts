import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCsvText, type StoredRow } from '../../src/domain/csv/index.ts';
import { MAX_REPORTED_ERRORS } from '../../server/services/ingest.ts';
import { HttpClient } from './httpClient.ts';
import { modelOf, q, readCsv, storedRows, unzipText, waitForJob as waitForVersion } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { createSurveys } from './surveysFixtures.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));

function form(fileName: string, bytes: Uint8Array, params?: object) {
  const data = new FormData();
  if (params) data.append('params', JSON.stringify(params));
  data.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}

const dataset = (from: string, to: string, extra: object = {}) => ({
  binaryfiledataset: {
    datatype: 'counts',
    requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
    from,
    to,
    comment: 'field day',
  },
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
  const answer = await admin.post('/applications/surveys/data/counts', {
    body: form(name.replace(/-v2\.csv$/, '.csv'), file(`csv/${name}`), params),
  });
  return answer;
}

const countRows = async () => (await admin.get('/applications/surveys/data/counts/json')).body.totalRows as number;

beforeAll(async () => {
  server = await startTestServer({ admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' } });
  admin = new HttpClient(server.url + '/api/v1');
  await admin.post('/login', { form: { login: 'root', password: 'root-password' } });
  await createSurveys(admin);
});
afterAll(() => server?.close());

describe('versioned deposits', () => {
  let first: string;

  it('keep a deposited version unpublished: it gives no rows', async () => {
    const answer = await deposit(
      'alps~lac_blanc~01-06-2024~30-06-2024.csv',
      dataset('2024-06-01 00:00:00', '2024-06-30 23:59:59'),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.rowCount).toBe(3);
    first = answer.body.fileId;
    expect(await countRows()).toBe(0);
  });

  it('give a deposited file back as it was uploaded', async () => {
    const download = await admin.get(`/applications/surveys/file/${first}`);
    expect(download.status).toBe(200);
    expect(download.text).toBe(file('csv/alps~lac_blanc~01-06-2024~30-06-2024.csv').toString('utf8'));
    expect(Number(download.headers.get('content-length'))).toBe(
      file('csv/alps~lac_blanc~01-06-2024~30-06-2024.csv').byteLength,
    );
    expect(download.headers.get('content-disposition')).toContain('attachment');
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
    const answer = await deposit(
      'alps~lac_blanc~01-06-2024~30-06-2024-v2.csv',
      dataset('2024-06-01 00:00:00', '2024-06-30 23:59:59', { topublish: true }),
    );
    expect(answer.status).toBe(202);
    expect((await waitForJob(answer.body.fileId)).published).toBe(true);
    expect(await countRows()).toBe(4);
    const versions = (await admin.get('/applications/surveys/filesOnRepository/counts')).body as Array<{
      id: string;
      published: boolean;
    }>;
    expect(versions.find((v) => v.id === first)?.published).toBe(false);
  });

  it('refuse publishing a version whose period overlaps a published one', async () => {
    const answer = await deposit(
      'alps~lac_blanc~15-06-2024~15-07-2024.csv',
      dataset('2024-06-15', '2024-07-15 23:59:59', { topublish: true }),
    );
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

  it('count every row outside the deposit period, listing the first 1,000 and saying the list is cut', async () => {
    const day = (i: number) => new Date(Date.UTC(2022, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    for (const outside of [MAX_REPORTED_ERRORS, MAX_REPORTED_ERRORS + 1]) {
      // A species and a day of 2022 or 2023 each: no two lines name the same row.
      const lines = Array.from(
        { length: outside },
        (_, i) =>
          `alps;lac_blanc;${i % 2 ? 'lagopus' : 'tichodroma'};${day(Math.floor(i / 2))
            .split('-')
            .reverse()
            .join('/')};1`,
      );
      const answer = await admin.post('/applications/surveys/data/counts', {
        body: form(
          'alps~lac_blanc~01-06-2024~30-06-2024.csv',
          new TextEncoder().encode(`project;site;species;day;individuals\n${lines.join('\n')}\n`),
          dataset('2024-06-01', '2024-06-30'),
        ),
      });
      expect(answer.status, answer.text.slice(0, 300)).toBe(400);
      expect(answer.body.params).toMatchObject({ errorCount: outside, truncated: outside > MAX_REPORTED_ERRORS });
      const errors = answer.body.errors as Array<{ lineNumber: number; code: string }>;
      expect(errors).toHaveLength(MAX_REPORTED_ERRORS);
      expect(new Set(errors.map((e) => e.code))).toEqual(new Set(['timerangeoutofinterval']));
      expect(errors.map((e) => e.lineNumber)).toEqual(errors.map((_, i) => i + 2));
    }
  });

  it('unpublish and delete', async () => {
    const versions = (await admin.get('/applications/surveys/filesOnRepository/counts')).body as Array<{
      id: string;
      published: boolean;
    }>;
    const published = versions.find((v) => v.published)!;
    await admin.post('/applications/surveys/data/counts', { json: { fileid: published.id, topublish: false } });
    await waitForJob(published.id);
    expect(await countRows()).toBe(0);
    const removed = await admin.delete(`/applications/surveys/file/${published.id}`);
    expect(removed.body).toEqual({ id: published.id, wasPublished: false });
  });

  it('answer the synthesis over ten intervals', async () => {
    const answer = await deposit(
      'alps~lac_blanc~01-06-2024~30-06-2024.csv',
      dataset('2024-06-01', '2024-06-30 23:59:59', { topublish: true }),
    );
    await waitForJob(answer.body.fileId);
    const synthesis = await admin.get('/applications/surveys/synthesis/counts');
    expect(synthesis.body.intervals).toHaveLength(10);
    expect(synthesis.body.variables.individuals.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    const zip = await admin.get('/applications/surveys/data/counts/zip');
    expect(zip.status).toBe(200);
  });

  it('fail a publication whose 25 lines name a species deleted since the deposit: all counted, 20 listed', async () => {
    const loaded = await admin.post('/applications/surveys/references/species', {
      body: form('species.csv', new TextEncoder().encode('code;name\nephemera;Éphémère\n')),
    });
    expect(loaded.status, loaded.text).toBe(201);
    const lines = Array.from(
      { length: 25 },
      (_, i) => `alps;lac_blanc;ephemera;${String(i + 1).padStart(2, '0')}/08/2025;${i}`,
    );
    const answer = await admin.post('/applications/surveys/data/counts', {
      body: form(
        'alps~lac_blanc~01-08-2025~31-08-2025.csv',
        new TextEncoder().encode(`project;site;species;day;individuals\n${lines.join('\n')}\n`),
        dataset('2025-08-01', '2025-08-31 23:59:59'),
      ),
    });
    expect(answer.status, answer.text).toBe(201);
    const removed = await admin.delete('/applications/surveys/references/species?naturalKey=ephemera');
    expect(removed.status, removed.text).toBe(200);
    const before = await countRows();
    const publishing = await admin.post('/applications/surveys/data/counts', {
      json: { fileid: answer.body.fileId, topublish: true },
    });
    expect(publishing.status, publishing.text).toBe(202);
    const state = await waitForJob(answer.body.fileId);
    expect(state.job.status).toBe('failed');
    expect(state.job.error.code).toBe('INVALID_CSV');
    expect(state.job.error.params.errorCount).toBe(25);
    // Line 1 is the header.
    expect(state.job.error.params.errors.map((e: { lineNumber: number }) => e.lineNumber)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    expect(state.published).toBe(false);
    expect(await countRows()).toBe(before);
  });
});

describe('a publication that fails half-way', () => {
  let faulty: TestServer;
  let client: HttpClient;
  beforeAll(async () => {
    faulty = await startTestServer({
      admin: { login: 'root', password: 'root-password', email: 'root@terrain.test' },
      faults: { publishFailAfterRows: 1 },
    });
    client = new HttpClient(faulty.url + '/api/v1');
    await client.post('/login', { form: { login: 'root', password: 'root-password' } });
    await createSurveys(client);
  });
  afterAll(() => faulty?.close());

  it('leaves the previous state: no rows, nothing published', async () => {
    const answer = await client.post('/applications/surveys/data/counts', {
      body: form(
        'alps~lac_blanc~01-06-2024~30-06-2024.csv',
        file('csv/alps~lac_blanc~01-06-2024~30-06-2024.csv'),
        dataset('2024-06-01', '2024-06-30 23:59:59', { topublish: true }),
      ),
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

/**
 * One dataset of a second application on the same server, followed step by step: after each step the rows the
 * consultation gives, the totals, the stored line count and the CSV export agree with the versions published.
 */
describe('a dataset through its versions', () => {
  const app = 'surveys_steps';
  const header = 'project;site;species;day;individuals';
  const JUNE_V1 = `${header}\nalps;mont_joly;tichodroma;02/06/2024;3\nalps;mont_joly;lagopus;02/06/2024;5\nalps;mont_joly;tichodroma;15/06/2024;1\n`;
  const JUNE_V2 = `${header}\nalps;mont_joly;tichodroma;02/06/2024;4\nalps;mont_joly;lagopus;02/06/2024;5\nalps;mont_joly;tichodroma;15/06/2024;1\nalps;mont_joly;lagopus;29/06/2024;2\n`;
  const JUNE_V3 = `${header}\nalps;mont_joly;tichodroma;02/06/2024;40\nalps;mont_joly;lagopus;03/06/2024;50\n`;
  const JULY = `${header}\nalps;mont_joly;tichodroma;10/07/2024;2\nalps;mont_joly;lagopus;20/07/2024;3\n`;
  const june = {
    binaryfiledataset: {
      requiredAuthorizations: { project: 'alps', site: 'mont_joly' },
      from: '2024-06-01',
      to: '2024-06-30 23:59:59',
    },
  };
  const july = {
    binaryfiledataset: {
      requiredAuthorizations: { project: 'alps', site: 'mont_joly' },
      from: '2024-07-01',
      to: '2024-07-31 23:59:59',
    },
  };
  const straddling = {
    binaryfiledataset: {
      requiredAuthorizations: { project: 'alps', site: 'mont_joly' },
      from: '2024-06-15',
      to: '2024-07-15',
    },
  };
  const ids: Record<string, string> = {};

  const send = async (name: string, text: string, params: object) => {
    const answer = await admin.post(`/applications/${app}/data/counts`, {
      body: form(name, new TextEncoder().encode(text), params),
    });
    expect([201, 202], answer.text).toContain(answer.status);
    return answer.body.fileId as string;
  };
  const publish = async (fileId: string, topublish = true) => {
    const answer = await admin.post(`/applications/${app}/data/counts`, { json: { fileid: fileId, topublish } });
    expect(answer.status, answer.text).toBe(202);
    return waitForVersion(admin, app, fileId);
  };
  /** What consultation, counts and export say: [day, species, individuals] of every published row. */
  const published = async () => {
    const json = await admin.get(`/applications/${app}/data/counts/json${q({ limit: 100 })}`);
    const csv = await admin.get(`/applications/${app}/data/counts/csv`);
    const listed = await admin.get(`/applications/${app}?filter=DATATYPE`);
    const fromJson = json.body.rows.map((r: { values: Record<string, string | number> }) => [
      String(r.values.day).slice(5, 15),
      String(r.values.species).replace('speciesK', ''),
      r.values.individuals,
    ]);
    const fromCsv = readCsv(csv.text, ';')
      .slice(1)
      .map(([, , species, day, individuals]) => [day.split('/').reverse().join('-'), species, Number(individuals)]);
    expect(fromCsv).toEqual(fromJson);
    expect(json.body.totalRows).toBe(fromJson.length);
    expect(listed.body.lineCounts?.counts ?? 0).toBe(fromJson.length);
    // By day then species (the pages come in natural-key order: species first).
    return (fromJson as Array<[string, string, number]>).sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
  };
  const versions = async () => {
    const list = (await admin.get(`/applications/${app}/filesOnRepository/counts`)).body as Array<{
      id: string;
      published: boolean;
    }>;
    return Object.fromEntries(
      Object.entries(ids).map(([name, id]) => [name, list.find((v) => v.id === id)?.published ?? 'deleted']),
    );
  };

  beforeAll(async () => {
    await createSurveys(admin, app);
  });
  afterAll(() => {
    server.server.ctx.config.faults = {};
  });

  it('refuses rows outside the deposit scope with the errors the browser engine gives', async () => {
    const text = `${header}\nalps;mont_joly;tichodroma;02/06/2024;3\nalps;lac_blanc;lagopus;02/06/2024;5\npyrenees;mont_joly;lagopus;03/06/2024;5\n`;
    const answer = await admin.post(`/applications/${app}/data/counts`, {
      body: form('june.csv', new TextEncoder().encode(text), june),
    });
    const model = await modelOf(admin, app);
    const references = new Map<string, StoredRow[]>();
    for (const name of ['projects', 'sites', 'species']) references.set(name, await storedRows(admin, app, name));
    const { report } = validateCsvText(
      {
        model,
        dataName: 'counts',
        fileName: 'june.csv',
        references: { rows: (name) => references.get(name) ?? [] },
        maxErrors: MAX_REPORTED_ERRORS,
        deposit: {
          scope: { project: 'projectsKalps', site: 'sitesKmont_joly' },
          from: '2024-06-01T00:00:00',
          to: '2024-06-30T23:59:59',
        },
      },
      text,
    );
    expect(report.errors.map((e) => [e.lineNumber, e.code])).toEqual([
      [3, 'badauthorizationscopeforrepository'],
      [4, 'badauthorizationscopeforrepository'],
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(report.errors);
    expect(answer.body.params).toEqual({ errorCount: report.errorCount, truncated: false });
  });

  it('gives no rows for a deposited version until it is published', async () => {
    ids.juneV1 = await send('june-v1.csv', JUNE_V1, june);
    expect(await published()).toEqual([]);
    const state = await publish(ids.juneV1);
    expect(state).toMatchObject({ published: true, job: { status: 'done', progress: 1 } });
    expect(await published()).toEqual([
      ['2024-06-02', 'lagopus', 5],
      ['2024-06-02', 'tichodroma', 3],
      ['2024-06-15', 'tichodroma', 1],
    ]);
  });

  it('replaces the published version of the same scope and period', async () => {
    ids.juneV2 = await send('june-v2.csv', JUNE_V2, { ...june, topublish: true });
    expect((await waitForVersion(admin, app, ids.juneV2)).job.status).toBe('done');
    expect(await versions()).toEqual({ juneV1: false, juneV2: true });
    expect(await published()).toEqual([
      ['2024-06-02', 'lagopus', 5],
      ['2024-06-02', 'tichodroma', 4],
      ['2024-06-15', 'tichodroma', 1],
      ['2024-06-29', 'lagopus', 2],
    ]);
  });

  it('keeps another period of the scope published beside it', async () => {
    ids.july = await send('july.csv', JULY, { ...july, topublish: true });
    expect((await waitForVersion(admin, app, ids.july)).published).toBe(true);
    expect(await versions()).toEqual({ juneV1: false, juneV2: true, july: true });
    expect((await published()).length).toBe(6);
  });

  it('counts lines per variable over ten intervals of the period covered', async () => {
    const synthesis = (await admin.get(`/applications/${app}/synthesis/counts`)).body;
    // Rows from 2 June to 20 July (each covering its day): 49 days cut in ten.
    expect(synthesis.from).toBe('2024-06-02T00:00:00');
    expect(synthesis.to).toBe('2024-07-21T00:00:00');
    expect(synthesis.intervals).toHaveLength(10);
    expect(synthesis.intervals[0]).toEqual({ from: '2024-06-02T00:00:00', to: '2024-06-06T21:36:00' });
    const perInterval = [2, 0, 1, 0, 0, 1, 0, 1, 0, 1];
    expect(synthesis.variables).toEqual({
      project: perInterval,
      site: perInterval,
      species: perInterval,
      day: perInterval,
      individuals: perInterval,
    });
    expect((await admin.get(`/applications/${app}/synthesis/counts/individuals`)).body.variables).toEqual({
      individuals: perInterval,
    });
  });

  it('refuses to publish a version whose period overlaps published ones without matching them', async () => {
    ids.straddling = await send('straddling.csv', `${header}\nalps;mont_joly;tichodroma;20/06/2024;9\n`, straddling);
    const before = await published();
    const state = await publish(ids.straddling);
    expect(state.published).toBe(false);
    expect(state.job).toMatchObject({
      status: 'failed',
      error: { code: 'overlappingpublishedversion', params: { lineNumber: -1, fileOrUUID: ids.straddling } },
    });
    expect([...state.job.error.params.files].sort()).toEqual(['july.csv', 'june-v2.csv']);
    expect(await published()).toEqual(before);
    expect(await versions()).toEqual({ juneV1: false, juneV2: true, july: true, straddling: false });
  });

  it('leaves the published version and its rows when a replacing publication fails half-way', async () => {
    const before = await published();
    ids.juneV3 = await send('june-v3.csv', JUNE_V3, june);
    server.server.ctx.config.faults = { publishFailAfterRows: 1 };
    const state = await publish(ids.juneV3);
    server.server.ctx.config.faults = {};
    expect(state.job).toMatchObject({ status: 'failed', error: { code: 'INJECTED_FAILURE' } });
    expect(state.published).toBe(false);
    expect(await versions()).toEqual({ juneV1: false, juneV2: true, july: true, straddling: false, juneV3: false });
    expect(await published()).toEqual(before);
    // The same version publishes once the fault is gone, replacing June v2.
    expect((await publish(ids.juneV3)).published).toBe(true);
    expect(await versions()).toMatchObject({ juneV2: false, juneV3: true, july: true });
    expect((await published()).filter(([day]) => day.startsWith('2024-06'))).toEqual([
      ['2024-06-02', 'tichodroma', 40],
      ['2024-06-03', 'lagopus', 50],
    ]);
  });

  it('removes the rows of an unpublished version, and of a deleted published one', async () => {
    const state = await publish(ids.july, false);
    expect(state).toMatchObject({ published: false, job: { kind: 'unpublish', status: 'done' } });
    expect(await published()).toEqual([
      ['2024-06-02', 'tichodroma', 40],
      ['2024-06-03', 'lagopus', 50],
    ]);
    const removed = await admin.delete(`/applications/${app}/file/${ids.juneV3}`);
    expect(removed.body).toEqual({ id: ids.juneV3, wasPublished: true });
    expect(await published()).toEqual([]);
    expect((await admin.get(`/applications/${app}/file/${ids.juneV3}`)).status).toBe(404);
    // The July version can be published again: nothing overlaps it any more.
    expect((await publish(ids.july)).published).toBe(true);
    expect((await published()).length).toBe(2);
  });

  it('exports the published rows in a zip with the references they point to', async () => {
    const response = await fetch(`${server.url}/api/v1/applications/${app}/data/counts/zip`, {
      headers: { authorization: `Bearer ${await tokenOf()}` },
    });
    expect(response.status).toBe(200);
    const files = unzipText(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      'counts.csv',
      'references/projects.csv',
      'references/sites.csv',
      'references/species.csv',
    ]);
    expect(readCsv(files['counts.csv'], ';')).toEqual([
      ['project', 'site', 'species', 'day', 'individuals'],
      ['alps', 'mont_joly', 'lagopus', '20/07/2024', '3'],
      ['alps', 'mont_joly', 'tichodroma', '10/07/2024', '2'],
    ]);
    expect(readCsv(files['references/sites.csv'], ';')).toEqual([
      ['code', 'label'],
      ['lac_blanc', 'Lac Blanc'],
      ['mont_joly', 'Mont Joly'],
    ]);
  });

  it('refuses row deletion on a versioned data type (versions are deleted as files)', async () => {
    const refused = await admin.delete(
      `/applications/${app}/data/counts${q({ naturalKeys: ['alps__mont_joly__tichodroma__10_07_2024'] })}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('DELETE_ON_REPOSITORY_APPLICATION_NOT_ALLOWED_EXCEPTION');
  });
});

/** A session token for raw downloads (zip). */
async function tokenOf(): Promise<string> {
  const answer = await new HttpClient(server.url + '/api/v1').post('/login', {
    form: { login: 'root', password: 'root-password' },
  });
  return answer.headers.get('authorization')!.replace(/^Bearer /, '');
}
