import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../server/jobs/jobs.ts';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { startInstanceProcess, type InstanceProcess } from './instanceProcesses.ts';

/**
 * Publication must never double or keep rows, whoever publishes what at the same time (concurrency audit M1, M2,
 * M6, S2), at the size of a real version (6,000 rows). On PostgreSQL the second instance is a separate process:
 * two servers in one process share its gates and would serialize what real instances do not. On the embedded
 * database both requests go to the one instance.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const ROOT = { login: 'root', password: 'root-password', email: 'root@terrain.test' };
const SPECIES = 200;
const DAYS = 30;
const ROWS = SPECIES * DAYS;

function form(fileName: string, text: string, params: object) {
  const data = new FormData();
  data.append('params', JSON.stringify(params));
  data.append('file', new Blob([new TextEncoder().encode(text)]), fileName);
  return data;
}

const speciesCsv = () =>
  'code;name\n' + Array.from({ length: SPECIES }, (_, i) => `sp${i};Species ${i}`).join('\n') + '\n';

function versionCsv(seed: number, month: string) {
  const lines = ['project;site;species;day;individuals'];
  for (let d = 1; d <= DAYS; d++)
    for (let s = 0; s < SPECIES; s++)
      lines.push(`alps;lac_blanc;sp${s};${String(d).padStart(2, '0')}/${month}/2024;${seed}`);
  return lines.join('\n') + '\n';
}

const dataset = (month: string) => ({
  binaryfiledataset: {
    datatype: 'counts',
    requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
    from: `2024-${month}-01 00:00:00`,
    to: `2024-${month}-30 23:59:59`,
  },
});

let first: TestServer;
let instance: InstanceProcess | undefined;
let a: HttpClient;
/** The other instance on PostgreSQL; the same one on the embedded database. */
let b: HttpClient;
let apps = 0;

beforeAll(async () => {
  first = await startTestServer({ admin: ROOT });
  a = new HttpClient(`${first.url}/api/v1`);
  expect((await a.post('/login', { form: { login: ROOT.login, password: ROOT.password } })).status).toBe(200);
  if (first.databaseUrl) {
    instance = await startInstanceProcess(first.databaseUrl);
    b = new HttpClient(`${instance.url}/api/v1`, { cookie: a.cookieHeader });
  } else b = a;
}, 120_000);

afterAll(async () => {
  await instance?.stop();
  await first?.close();
});

async function newApplication() {
  const name = `racepub${++apps}`;
  const yaml = readFileSync(path.join(fixtures, 'configurations/surveys.yaml'), 'utf8').replace(
    'OA_name: surveys',
    `OA_name: ${name}`,
  );
  const created = await a.post(`/applications/${name}`, {
    body: (() => {
      const data = new FormData();
      data.append('file', new Blob([new TextEncoder().encode(yaml)]), 's.yaml');
      return data;
    })(),
  });
  expect(created.text).toContain('"type":"result"');
  for (const [reference, csv] of [
    ['projects', readFileSync(path.join(fixtures, 'csv/surveys-projects.csv'), 'utf8')],
    ['sites', readFileSync(path.join(fixtures, 'csv/surveys-sites.csv'), 'utf8')],
    ['species', speciesCsv()],
  ]) {
    const data = new FormData();
    data.append('file', new Blob([new TextEncoder().encode(csv)]), `${reference}.csv`);
    const loaded = await a.post(`/applications/${name}/references/${reference}`, { body: data });
    expect(loaded.status, loaded.text).toBe(201);
  }
  return name;
}

async function deposit(app: string, seed: number, month = '06') {
  const answer = await a.post(`/applications/${app}/data/counts`, {
    body: form(`alps~lac_blanc~01-${month}-2024~30-${month}-2024.csv`, versionCsv(seed, month), dataset(month)),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.fileId as string;
}

const publish = (client: HttpClient, app: string, fileid: string, topublish = true) =>
  client.post(`/applications/${app}/data/counts`, { json: { fileid, topublish } });

/** Waits until no job is queued or running (their state, read in the database, is the signal). */
async function jobsEnded() {
  for (const until = Date.now() + 240_000; ;) {
    const busy = await first.server.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > until) throw new Error('jobs still running after 240 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The entry as stored, and as the lists and the table tell it. */
async function state(app: string) {
  const db = first.server.ctx.db;
  const application = await db
    .selectFrom('applications')
    .select('id')
    .where('name', '=', app)
    .executeTakeFirstOrThrow();
  const rows = await sql<{ rows: string; orphans: string }>`
    select count(*) as rows, count(*) filter (where file_id not in (select id from deposit_files)) as orphans
    from data_rows where application_id = ${application.id} and data_name = 'counts'`.execute(db);
  const versions = await db
    .selectFrom('deposit_files')
    .select(['id', 'published'])
    .where('application_id', '=', application.id)
    .execute();
  const listed = await a.get(`/applications/${app}?filter=ALL`);
  const table = await a.get(`/applications/${app}/data/counts/json`);
  return {
    rows: Number(rows.rows[0].rows),
    orphans: Number(rows.rows[0].orphans),
    versions: versions.length,
    published: versions.filter((v) => v.published).map((v) => v.id),
    lineCount: listed.body.lineCounts?.counts ?? 0,
    totalRows: table.body.totalRows,
  };
}

describe('publication races', () => {
  it('publishing a published version again answers its state, queues nothing and keeps its rows; so do two such requests at once', async () => {
    const app = await newApplication();
    const v = await deposit(app, 1);
    const published = await publish(a, app, v);
    expect(published.status, published.text).toBe(202);
    await jobsEnded();
    const again = await publish(b, app, v);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ fileId: v, topublish: true, published: true });
    const twice = await Promise.all([publish(a, app, v), publish(b, app, v)]);
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    const jobs = await first.server.ctx.db.selectFrom('jobs').select('id').where('file_id', '=', v).execute();
    expect(jobs).toHaveLength(1);
    expect(await state(app)).toMatchObject({ rows: ROWS, published: [v], lineCount: ROWS, totalRows: ROWS });
    // Unpublishing one that is not published is answered the same way.
    expect((await publish(a, app, v, false)).status).toBe(202);
    await jobsEnded();
    const unpublishedAgain = await publish(b, app, v, false);
    expect(unpublishedAgain.body).toEqual({ fileId: v, topublish: false, published: false });
    expect(await state(app)).toMatchObject({ rows: 0, published: [], lineCount: 0 });
  }, 300_000);

  it('a publication job run again on a published version (taken up after a crash that followed its commit) writes nothing', async () => {
    const app = await newApplication();
    const v = await deposit(app, 1);
    expect((await publish(a, app, v)).status).toBe(202);
    await jobsEnded();
    const db = first.server.ctx.db;
    const file = await db
      .selectFrom('deposit_files')
      .select(['application_id', 'published_by'])
      .where('id', '=', v)
      .executeTakeFirstOrThrow();
    const rerun = await enqueueJob(db, {
      kind: 'publish',
      application_id: file.application_id,
      file_id: v,
      requested_by: file.published_by,
    });
    await jobsEnded();
    const job = await db.selectFrom('jobs').select('status').where('id', '=', rerun).executeTakeFirstOrThrow();
    expect(job.status).toBe('done');
    expect(await state(app)).toMatchObject({ rows: ROWS, published: [v], lineCount: ROWS, totalRows: ROWS });
  }, 300_000);

  it('two requests to publish one version at once queue one publication', async () => {
    for (let round = 0; round < 2; round++) {
      const app = await newApplication();
      const v = await deposit(app, 1);
      const answers = await Promise.all([publish(a, app, v), publish(b, app, v)]);
      const statuses = answers.map((answer) => answer.status).sort();
      // The second sees the first's job queued or running (409), or already done (200): never a second job.
      expect([
        [202, 409],
        [200, 202],
      ]).toContainEqual(statuses);
      await jobsEnded();
      expect(await state(app)).toMatchObject({ rows: ROWS, published: [v], lineCount: ROWS, totalRows: ROWS });
    }
  }, 600_000);

  it('two versions of one dataset published at once on two instances: one stays published, with its rows alone', async () => {
    for (let round = 0; round < 2; round++) {
      const app = await newApplication();
      const v1 = await deposit(app, 1);
      const v2 = await deposit(app, 2);
      const answers = await Promise.all([publish(a, app, v1), publish(b, app, v2)]);
      expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
      await jobsEnded();
      const after = await state(app);
      expect(after).toMatchObject({ rows: ROWS, lineCount: ROWS, totalRows: ROWS, orphans: 0 });
      expect(after.published).toHaveLength(1);
    }
  }, 600_000);

  it('two versions of different periods published at once on two instances: the line count counts both', async () => {
    for (let round = 0; round < 2; round++) {
      const app = await newApplication();
      const june = await deposit(app, 1, '06');
      const july = await deposit(app, 2, '07');
      const answers = await Promise.all([publish(a, app, june), publish(b, app, july)]);
      expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
      await jobsEnded();
      const after = await state(app);
      expect(after).toMatchObject({ rows: 2 * ROWS, lineCount: 2 * ROWS, totalRows: 2 * ROWS });
      expect(after.published).toHaveLength(2);
    }
  }, 600_000);

  it('a version deleted while its publication is requested: the publication is refused 404, the deletion 409, or the deletion waits for the publication and takes the published version, never a 500 nor a job lost', async () => {
    const app = await newApplication();
    for (let round = 0; round < 4; round++) {
      const v = await deposit(app, round);
      const [published, deleted] = await Promise.all([publish(a, app, v), b.delete(`/applications/${app}/file/${v}`)]);
      const outcome = `${published.status}/${deleted.status}`;
      expect(['202/409', '404/200', '202/200'], `${published.text} ${deleted.text}`).toContain(outcome);
      if (published.status === 404) expect(published.body.code).toBe('NO_SUCH_FILE');
      // The deletion waited for the publication job holding the entry, then deleted the version it had published.
      if (outcome === '202/200') expect(deleted.body.wasPublished).toBe(true);
      await jobsEnded();
      const after = await state(app);
      expect(after.orphans).toBe(0);
      if (outcome === '202/409') {
        expect(after.published).toEqual([v]);
        expect(after).toMatchObject({ rows: ROWS, lineCount: ROWS });
        // Leaves the entry empty for the next round.
        expect((await a.delete(`/applications/${app}/file/${v}`)).status).toBe(200);
      }
      expect(await state(app)).toMatchObject({ rows: 0, versions: 0, lineCount: 0 });
    }
  }, 600_000);
});
