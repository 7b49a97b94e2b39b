/**
 * Upload kit, backup and restore over HTTP (issue 11): the kit's contents (templates the CSV engine reads as valid
 * empty files, README in the asked language), a backup restored on a fresh instance with its own database giving
 * the same rows, files, versions and publication states, the restorer credited with what it restores (the people
 * the backup names kept as text), one bundle at a time per user (429, across instances on PostgreSQL), and
 * refusals (rights, not a zip, zip-slip, zip bombs, a charter that is not a PDF, tampered files) that leave
 * nothing behind.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigurationOverBudget } from '../../server/workers/configurationCheckPool.ts';
import { validateCsvText } from '../../src/domain/csv/index.ts';
import type { BundleManifest } from '../../src/domain/bundle/manifest.ts';
import { HttpClient } from './httpClient.ts';
import { creatorUser, plainUser, streamEvents } from './applicationFixtures.ts';
import { api } from './apiClient.ts';
import {
  OBSERVATORY_YAML,
  HABITATS_CSV,
  READINGS_CSV,
  ROOT,
  STATIONS_CSV,
  createApplication,
  csvForm,
  modelOf,
  storedRows,
  tableState,
  waitForJob,
  withoutIds,
} from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { wholeStoredFile, writeFileParts } from '../../server/services/fileParts.ts';

/** Stores bytes as a file's parts, as the server does, for a row written here directly. */
async function storeParts(db: TestServer['server']['ctx']['db'], contentId: string, bytes: Uint8Array) {
  const parts = writeFileParts(db, contentId);
  await parts.add(bytes);
  await parts.end();
}

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

let source: TestServer;
let admin: HttpClient;

async function signedInAdmin(server: TestServer) {
  const client = new HttpClient(server.url + '/api/v1');
  const login = await client.post('/login', { form: { login: ROOT.login, password: ROOT.password } });
  expect(login.status, login.text).toBe(200);
  return { client, token: login.headers.get('authorization')!.replace(/^Bearer /, '') };
}

let token: string;

/** A bundle downloaded whole. */
async function download(server: TestServer, bearer: string, app: string, query: string) {
  const response = await fetch(`${server.url}/api/v1/applications/${app}/upload-bundle${query}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

function restoreForm(bytes: Uint8Array, fileName = 'backup.zip') {
  const form = new FormData();
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName);
  return form;
}

async function restore(client: HttpClient, name: string, bytes: Uint8Array) {
  return client.post(`/applications/${name}/upload-bundle`, { body: restoreForm(bytes) });
}

async function deposit(app: string, name: string, from: string, to: string, topublish: boolean) {
  const params = {
    binaryfiledataset: {
      datatype: 'counts',
      requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
      from,
      to,
      comment: `deposit of ${name}`,
    },
    topublish,
  };
  const answer = await admin.post(`/applications/${app}/data/counts`, {
    body: csvForm(name.replace(/-v2\.csv$/, '.csv'), file(`csv/${name}`), params),
  });
  expect([201, 202], answer.text).toContain(answer.status);
  if (topublish) expect((await waitForJob(admin, app, answer.body.fileId)).published).toBe(true);
  return answer.body.fileId as string;
}

const CHARTER = strToU8('%PDF-1.4\n% Terrain test charter\n');
/** Set-ups start servers and publish versions: slower than one hook's default on a busy machine. */
const SET_UP_MS = 180_000;

beforeAll(async () => {
  source = await startTestServer({ admin: ROOT });
  ({ client: admin, token } = await signedInAdmin(source));
  await createApplication(admin, 'surveys', file('configurations/surveys.yaml'), 'surveys.yaml');
  for (const [reference, csv] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
    ['species', 'surveys-species.csv'],
  ]) {
    expect(
      (await admin.post(`/applications/surveys/references/${reference}`, { body: csvForm(csv, file(`csv/${csv}`)) }))
        .status,
    ).toBe(201);
  }
  // Three versions: the first replaced by the second (so no longer published), a third overlapping and kept aside.
  await deposit('surveys', 'alps~lac_blanc~01-06-2024~30-06-2024.csv', '2024-06-01', '2024-06-30 23:59:59', true);
  await deposit('surveys', 'alps~lac_blanc~01-06-2024~30-06-2024-v2.csv', '2024-06-01', '2024-06-30 23:59:59', true);
  await deposit('surveys', 'alps~lac_blanc~15-06-2024~15-07-2024.csv', '2024-06-15', '2024-07-15 23:59:59', false);
  const surveys = await source.server.ctx.db
    .selectFrom('applications')
    .select('id')
    .where('name', '=', 'surveys')
    .executeTakeFirstOrThrow();
  const charterId = crypto.randomUUID();
  await storeParts(source.server.ctx.db, charterId, CHARTER);
  await source.server.ctx.db
    .insertInto('additional_files')
    .values({
      id: charterId,
      content_id: charterId,
      application_id: surveys.id,
      file_type: '__charter__',
      file_name: 'charte.pdf',
      name_key: 'charte.pdf'.toLowerCase(),
      content_type: 'application/pdf',
      size: CHARTER.byteLength,
      comment: 'v1',
      for_application: true,
    })
    .execute();

  await createApplication(admin, 'observatory', OBSERVATORY_YAML);
  for (const [reference, csv] of [
    ['habitats', HABITATS_CSV],
    ['stations', STATIONS_CSV],
  ]) {
    expect(
      (
        await admin.post(`/applications/observatory/references/${reference}`, {
          body: csvForm(`${reference}.csv`, csv),
        })
      ).status,
    ).toBe(201);
  }
  expect(
    (await admin.post('/applications/observatory/data/readings', { body: csvForm('readings.csv', READINGS_CSV) }))
      .status,
  ).toBe(201);
}, SET_UP_MS);
afterAll(() => source?.close());

describe('the upload kit', () => {
  let manifest: BundleManifest;
  let files: Record<string, Uint8Array>;

  it('is a zip download with the configuration as uploaded, a README, a template per entry, the deposit script and a manifest', async () => {
    const kit = await download(source, token, 'surveys', '?locale=fr');
    expect(kit.status, text(kit.bytes)).toBe(200);
    expect(kit.headers.get('content-type')).toBe('application/zip');
    expect(kit.headers.get('content-disposition')).toMatch(
      /^attachment; filename="surveys-kit-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    expect(Number(kit.headers.get('x-bundle-estimated-bytes'))).toBeGreaterThan(0);
    files = unzipSync(kit.bytes);
    expect(Object.keys(files)).toEqual([
      'README.md',
      'configuration/surveys.yaml',
      'templates/01_projects.csv',
      'templates/02_sites.csv',
      'templates/03_species.csv',
      'templates/04_counts.csv',
      'deposit.mjs',
      'manifest.json',
    ]);
    expect(files['configuration/surveys.yaml']).toEqual(file('configurations/surveys.yaml'));
    manifest = JSON.parse(text(files['manifest.json']));
    expect(manifest).toMatchObject({
      format: 'terrain-upload-bundle',
      kind: 'kit',
      locale: 'fr',
      application: { name: 'surveys', version: '1.0.0' },
      data: [],
      deposits: [],
      additionalFiles: [],
    });
    for (const listed of [manifest.configuration, manifest.readme, ...manifest.templates, manifest.depositScript!]) {
      expect(sha256(files[listed.path]), listed.path).toBe(listed.sha256);
      expect(files[listed.path].byteLength).toBe(listed.size);
    }
  });

  it('gives templates whose header lines the CSV engine reads as a valid empty file, with an example line', async () => {
    const model = await modelOf(admin, 'surveys');
    const references = Object.fromEntries(
      await Promise.all(
        ['projects', 'sites', 'species'].map(async (name) => [name, await storedRows(admin, 'surveys', name)]),
      ),
    );
    for (const template of manifest.templates) {
      const lines = text(files[template.path]).split('\n');
      expect(lines.at(-1)).toBe('');
      const entry = model.data.find((d) => d.name === template.dataName)!;
      expect(lines[0]).toBe(entry.csv.columns.map((c) => `"${c.header}"`).join(entry.csv.separator));
      const withoutExample = `${lines.slice(0, -2).join('\n')}\n`;
      const read = validateCsvText(
        {
          model,
          dataName: entry.name,
          fileName: template.path,
          references: { rows: (name) => references[name] ?? [] },
        },
        withoutExample,
      );
      expect(read.report, template.path).toEqual({ rowCount: 0, errorCount: 0, errors: [], truncated: false });
      expect(lines.at(-2)!.split(entry.csv.separator)).toHaveLength(entry.csv.columns.length);
    }
    // The example line names stored rows and writes dates in their pattern.
    expect(text(files['templates/04_counts.csv']).split('\n')[1]).toBe('"alps";"lac_blanc";"lagopus";"31/01/2024";"1"');
  });

  it('has its README in the asked language', async () => {
    expect(text(files['README.md'])).toContain('kit de dépôt en masse');
    expect(text(files['README.md'])).toContain('`day`\u00a0: date au format `dd/MM/yyyy`');
    // French spaces before : ; ? ! never break (docs/decisions.md, "French spaces that never break").
    expect(text(files['README.md'])).not.toMatch(/ [:;?!»]|« /);
    const english = unzipSync((await download(source, token, 'surveys', '?locale=en')).bytes);
    expect(text(english['README.md'])).toContain('bulk-upload kit');
    expect(text(english['README.md'])).toContain('`day`: date as `dd/MM/yyyy`');
    const byHeader = await fetch(`${source.url}/api/v1/applications/surveys/upload-bundle`, {
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-GB,en;q=0.8' },
    });
    expect(text(unzipSync(new Uint8Array(await byHeader.arrayBuffer()))['README.md'])).toContain('bulk-upload kit');
  });

  it('is refused to users who do not manage the application, and to visitors', async () => {
    const plain = await plainUser(source);
    expect((await download(source, plain.token, 'surveys', '')).status).toBe(403);
    expect((await fetch(`${source.url}/api/v1/applications/surveys/upload-bundle?withData=true`)).status).toBe(401);
    expect((await download(source, token, 'nowhere', '')).status).toBe(404);
  });
});

/**
 * What a version looks like from the API, without what depends on the instance (ids, jobs), and with who deposited
 * and published it: a restore credits the restorer and keeps them as text.
 */
const versionState = ({
  id: _id,
  job: _job,
  createdBy,
  publishedBy,
  originalDepositor,
  originalPublisher,
  ...rest
}: Record<string, any>) => ({
  ...rest,
  depositor: originalDepositor ?? createdBy.login,
  publisher: originalPublisher ?? publishedBy.login,
});

async function versionsOf(client: HttpClient, app: string, dataType: string) {
  const answer = await client.get(`/applications/${app}/filesOnRepository/${dataType}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Array<Record<string, any>>;
}

async function additionalFilesOf(server: TestServer, app: string) {
  const rows = await server.server.ctx.db
    .selectFrom('additional_files as f')
    .innerJoin('applications as a', 'a.id', 'f.application_id')
    .select([
      'f.file_type',
      'f.file_name',
      'f.content_type',
      'f.content_id',
      'f.size',
      'f.comment',
      'f.fields',
      'f.associates',
      'f.for_application',
      'f.created_at',
      'f.updated_at',
    ])
    .where('a.name', '=', app)
    .orderBy('f.file_name')
    .execute();
  const db = server.server.ctx.db;
  return Promise.all(
    rows.map(async ({ content_id, size, ...row }) => ({
      ...row,
      content: Buffer.from(await wholeStoredFile(db, content_id, size)).toString('base64'),
    })),
  );
}

/** Everything the API tells about an application's data: rows per entry, counts, versions and their files. */
async function dataState(client: HttpClient, app: string) {
  const model = await modelOf(client, app);
  const view = (await client.get(`/applications/${app}?filter=ALL`)).body;
  const state: Record<string, unknown> = { version: view.version, comment: view.comment, lineCounts: view.lineCounts };
  for (const entry of model.data) {
    const table = await tableState(client, app, entry.name, entry.kind === 'reference' ? 'reference' : 'data');
    state[entry.name] = { rows: withoutIds(table.rows), totalRows: table.totalRows, lineCount: table.lineCount };
    if (entry.submission.strategy === 'OA_VERSIONING') {
      const versions = await versionsOf(client, app, entry.name);
      state[`${entry.name}/versions`] = await Promise.all(
        versions.map(async (version) => ({
          ...versionState(version),
          content: (await client.get(`/applications/${app}/file/${version.id}`)).text,
        })),
      );
    }
  }
  return state;
}

describe('a backup restored on a fresh instance with its own database', () => {
  let target: TestServer;
  let targetAdmin: HttpClient;

  beforeAll(async () => {
    target = await startTestServer({ admin: ROOT });
    ({ client: targetAdmin } = await signedInAdmin(target));
  }, SET_UP_MS);
  afterAll(() => target?.close());

  for (const app of ['surveys', 'observatory']) {
    it(`gives the same rows, files, versions and publication states (${app})`, async () => {
      const backup = await download(source, token, app, '?withData=true&locale=en');
      expect(backup.status).toBe(200);
      expect(backup.headers.get('content-disposition')).toContain(`${app}-backup-`);
      const answer = await restore(targetAdmin, app, backup.bytes);
      expect(answer.status, answer.text).toBe(200);
      const events = streamEvents(answer.text);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'progress', result: 1 });
      expect(events.find((e) => e.type === 'result')?.result).toMatchObject({ name: app, version: '1.0.0' });
      const original = await dataState(admin, app);
      if (app === 'surveys')
        expect((original['counts/versions'] as Array<{ published: boolean }>).map((v) => v.published)).toEqual([
          false,
          true,
          false,
        ]);
      expect(await dataState(targetAdmin, app)).toEqual(original);
      expect(await additionalFilesOf(target, app)).toEqual(await additionalFilesOf(source, app));
    });
  }

  it('holds every reference and published dataset in load order, the versions with their states and the additional files', async () => {
    const files = unzipSync((await download(source, token, 'surveys', '?withData=true')).bytes);
    const manifest: BundleManifest = JSON.parse(text(files['manifest.json']));
    expect(manifest.kind).toBe('backup');
    expect(manifest.data.map((d) => [d.dataName, d.restored, d.files.map((f) => [f.path, f.rows])])).toEqual([
      ['projects', true, [['data/01_projects.csv', 2]]],
      ['sites', true, [['data/02_sites.csv', 2]]],
      ['species', true, [['data/03_species.csv', 2]]],
      ['counts', false, [['data/04_counts.csv', 4]]],
    ]);
    expect(manifest.deposits.map((d) => [d.fileName, d.published, d.from, d.to, d.rowCount, d.createdBy])).toEqual([
      ['alps~lac_blanc~01-06-2024~30-06-2024.csv', false, '2024-06-01T00:00:00', '2024-06-30T23:59:59', 3, 'root'],
      ['alps~lac_blanc~01-06-2024~30-06-2024.csv', true, '2024-06-01T00:00:00', '2024-06-30T23:59:59', 4, 'root'],
      ['alps~lac_blanc~15-06-2024~15-07-2024.csv', false, '2024-06-15T00:00:00', '2024-07-15T23:59:59', 1, 'root'],
    ]);
    expect(manifest.deposits[1].scope).toEqual({ project: 'projectsKalps', site: 'sitesKlac_blanc' });
    expect(files[manifest.deposits[1].path]).toEqual(file('csv/alps~lac_blanc~01-06-2024~30-06-2024-v2.csv'));
    expect(manifest.additionalFiles).toMatchObject([
      { fileType: '__charter__', fileName: 'charte.pdf', contentType: 'application/pdf', forApplication: true },
    ]);
    expect(files[manifest.additionalFiles[0].path]).toEqual(CHARTER);
    for (const listed of [
      ...manifest.data.flatMap((d) => d.files),
      ...manifest.deposits,
      ...manifest.additionalFiles,
    ]) {
      expect(sha256(files[listed.path]), listed.path).toBe(listed.sha256);
    }
  });
});

describe('who a restore credits', () => {
  it('the restorer deposits, publishes and owns what it restores; the people the backup names stay text, shown and backed up again', async () => {
    // A bundle is a file anyone can write: this one says everything was done by another account of the instance.
    const victim = await plainUser(source, 'victim');
    const files = unzipSync((await download(source, token, 'surveys', '?withData=true')).bytes);
    const manifest: BundleManifest = JSON.parse(text(files['manifest.json']));
    for (const deposit of manifest.deposits)
      Object.assign(deposit, { createdBy: victim.login, publishedBy: deposit.published ? victim.login : null });
    for (const file of manifest.additionalFiles) file.owner = victim.login;
    const crafted = zipSync({ ...files, 'manifest.json': strToU8(JSON.stringify(manifest)) });
    const restorer = await creatorUser(
      source,
      api(source, { authorization: `Bearer ${token}` }),
      ['credited_.*'],
      'restorer',
    );
    const answer = await restore(restorer.client, 'credited_surveys', crafted);
    expect(streamEvents(answer.text).find((e) => e.type === 'result')?.result, answer.text).toMatchObject({
      name: 'credited_surveys',
      deposits: 3,
      additionalFiles: 1,
    });

    const versions = await versionsOf(admin, 'credited_surveys', 'counts');
    expect(
      versions.map((v) => [
        v.published,
        v.createdBy.login,
        v.originalDepositor,
        v.publishedBy.login,
        v.originalPublisher,
      ]),
    ).toEqual([
      [false, restorer.login, victim.login, null, null],
      [true, restorer.login, victim.login, restorer.login, victim.login],
      [false, restorer.login, victim.login, null, null],
    ]);
    const db = source.server.ctx.db;
    const credited = await db
      .selectFrom('deposit_files')
      .select('id')
      .where((eb) => eb.or([eb('created_by', '=', victim.id), eb('published_by', '=', victim.id)]))
      .execute();
    expect(credited).toEqual([]);
    const charter = await db
      .selectFrom('additional_files as f')
      .innerJoin('applications as a', 'a.id', 'f.application_id')
      .select(['f.owner_id', 'f.original_owner'])
      .where('a.name', '=', 'credited_surveys')
      .execute();
    expect(charter).toEqual([{ owner_id: restorer.id, original_owner: victim.login }]);

    // The next backup names who did it in the first application, not the restorer.
    const again: BundleManifest = JSON.parse(
      text(unzipSync((await download(source, token, 'credited_surveys', '?withData=true')).bytes)['manifest.json']),
    );
    expect(again.deposits.map((d) => [d.createdBy, d.publishedBy])).toEqual(
      manifest.deposits.map((d) => [d.createdBy, d.publishedBy]),
    );
    expect(again.additionalFiles.map((f) => f.owner)).toEqual([victim.login]);
    // Rows are not tied to their application by a foreign key (migration 0019): they go first.
    const creditedApplication = db.selectFrom('applications').select('id').where('name', '=', 'credited_surveys');
    await db.deleteFrom('data_rows').where('application_id', 'in', creditedApplication).execute();
    await db.deleteFrom('applications').where('name', '=', 'credited_surveys').execute();
  });
});

describe('one bundle at a time per user', () => {
  it('answers 429 to a second request of the same user while one streams, on any instance, and frees the user when it ends', async () => {
    // A stored file far larger than what sockets buffer: the first download waits for its reader.
    const observatory = await source.server.ctx.db
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'observatory')
      .executeTakeFirstOrThrow();
    const large = randomBytes(48 * 1024 * 1024);
    const largeId = crypto.randomUUID();
    await storeParts(source.server.ctx.db, largeId, large);
    await source.server.ctx.db
      .insertInto('additional_files')
      .values({
        id: largeId,
        content_id: largeId,
        application_id: observatory.id,
        file_type: '__charter__',
        file_name: 'large.pdf',
        name_key: 'large.pdf'.toLowerCase(),
        size: large.byteLength,
      })
      .execute();
    try {
      const first = await fetch(`${source.url}/api/v1/applications/observatory/upload-bundle?withData=true`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(first.status).toBe(200);
      const second = await download(source, token, 'surveys', '');
      expect(second.status).toBe(429);
      expect(JSON.parse(text(second.bytes))).toMatchObject({ code: 'BUNDLE_ALREADY_RUNNING' });
      if (source.databaseUrl) {
        const other = await startTestServer({ databaseUrl: source.databaseUrl });
        try {
          const { token: otherToken } = await signedInAdmin(other);
          expect((await download(other, otherToken, 'surveys', '')).status).toBe(429);
        } finally {
          await other.close();
        }
      }
      // Another user is not held back.
      const creator = await creatorUser(source, api(source, { authorization: `Bearer ${token}` }), ['surveys']);
      expect((await download(source, creator.token, 'surveys', '')).status).toBe(200);
      await first.body!.cancel();
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await download(source, token, 'surveys', '')).status;
      }
      expect(status).toBe(200);
    } finally {
      await source.server.ctx.db.deleteFrom('additional_files').where('id', '=', largeId).execute();
    }
  }, 120_000);
});

/** The central-directory record of an entry, whose declared size a zip bomb would lie about. */
function patchDeclaredSize(zip: Uint8Array, entry: string, size: number): Uint8Array {
  const bytes = new Uint8Array(zip);
  const view = new DataView(bytes.buffer);
  const name = strToU8(entry);
  for (let at = bytes.length - 46; at >= 0; at--) {
    if (view.getUint32(at, true) !== 0x02014b50 || view.getUint16(at + 28, true) !== name.length) continue;
    if (bytes.subarray(at + 46, at + 46 + name.length).every((byte, index) => byte === name[index])) {
      view.setUint32(at + 24, size, true);
      return bytes;
    }
  }
  throw new Error(`no ${entry} in the zip`);
}

describe('a restore that cannot be done', () => {
  let target: TestServer;
  let targetAdmin: HttpClient;
  let backup: Uint8Array;
  let files: Record<string, Uint8Array>;
  let manifest: BundleManifest;

  const rebuilt = (changes: Record<string, Uint8Array | undefined>) => {
    const next = { ...files, ...changes };
    for (const [name, content] of Object.entries(next)) if (content === undefined) delete next[name];
    return zipSync(next as Record<string, Uint8Array>);
  };
  /** The zip with one CSV replaced and the manifest saying so, checksum included (a hand-edited backup). */
  const withCsv = (entry: string, content: string) => {
    const bytes = strToU8(content);
    const edited: BundleManifest = JSON.parse(JSON.stringify(manifest));
    const listed = edited.data.flatMap((d) => d.files).find((f) => f.path === entry)!;
    Object.assign(listed, { size: bytes.byteLength, sha256: sha256(bytes) });
    return rebuilt({ [entry]: bytes, 'manifest.json': strToU8(JSON.stringify(edited)) });
  };

  async function expectNothingLeft(name: string) {
    expect((await targetAdmin.get(`/applications/${name}`)).status).toBe(404);
    const db = target.server.ctx.db;
    expect(await db.selectFrom('applications').select('name').execute()).toEqual([]);
    for (const table of [
      'data_rows',
      'deposit_files',
      'additional_files',
      'file_parts',
      'configurations',
      'entry_counts',
    ] as const) {
      expect(
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        table,
      ).toBe(0);
    }
  }

  async function expectRefused(bytes: Uint8Array, status: number, code: string, reason?: string, name = 'surveys') {
    const answer = await restore(targetAdmin, name, bytes);
    expect(answer.status, answer.text).toBe(status);
    expect(answer.body).toMatchObject({ code, ...(reason ? { params: { reason } } : {}) });
    await expectNothingLeft(name);
  }

  /** A refusal met while the restore runs: an error event, no result, and nothing kept. */
  async function expectFailedStream(bytes: Uint8Array, code: string, params: Record<string, unknown>) {
    const answer = await restore(targetAdmin, 'surveys', bytes);
    expect(answer.status, answer.text).toBe(200);
    const events = streamEvents(answer.text);
    expect(events.filter((e) => e.type === 'result')).toEqual([]);
    expect(events.filter((e) => e.type === 'error').map((e) => e.result)).toEqual([
      expect.objectContaining({ code, params: expect.objectContaining(params) }),
    ]);
    await expectNothingLeft('surveys');
  }

  beforeAll(async () => {
    target = await startTestServer({ admin: ROOT, bundleMaxInflatedBytes: 8 * 1024 * 1024 });
    ({ client: targetAdmin } = await signedInAdmin(target));
    backup = (await download(source, token, 'surveys', '?withData=true')).bytes;
    files = unzipSync(backup);
    manifest = JSON.parse(text(files['manifest.json']));
  }, SET_UP_MS);
  afterAll(() => target?.close());

  it('is refused to users who may not create the application, before the file is read', async () => {
    const plain = await plainUser(target);
    const answer = await plain.client.post('/applications/surveys/upload-bundle', { body: restoreForm(backup) });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('NO_RIGHT_FOR_APPLICATION_CREATION');
    const creator = await creatorUser(target, api(target, { cookie: targetAdmin.cookieHeader }), ['copy_.*']);
    expect(
      (await creator.client.post('/applications/surveys/upload-bundle', { body: restoreForm(backup) })).status,
    ).toBe(403);
    await expectNothingLeft('surveys');
    const allowed = await creator.client.post('/applications/copy_surveys/upload-bundle', {
      body: restoreForm(backup),
    });
    expect(streamEvents(allowed.text).find((e) => e.type === 'result')?.result).toMatchObject({ name: 'copy_surveys' });
    expect(
      (await creator.client.post('/applications/copy_surveys/upload-bundle', { body: restoreForm(backup) })).status,
    ).toBe(409);
    const copied = target.server.ctx.db.selectFrom('applications').select('id').where('name', '=', 'copy_surveys');
    await target.server.ctx.db.deleteFrom('data_rows').where('application_id', 'in', copied).execute();
    await target.server.ctx.db.deleteFrom('applications').where('name', '=', 'copy_surveys').execute();
  });

  it('refuses what is not a bundle', async () => {
    await expectRefused(randomBytes(2048), 400, 'INVALID_BUNDLE', 'invalidZip');
    await expectRefused(new Uint8Array(), 400, 'EMPTY_FILE');
    await expectRefused(zipSync({ 'notes.txt': strToU8('hello') }), 400, 'INVALID_BUNDLE', 'notABundle');
    await expectRefused(
      rebuilt({ 'manifest.json': strToU8('{"format": "terrain-upload-bundle", "formatVersion": 1}') }),
      400,
      'INVALID_BUNDLE',
      'badManifest',
    );
    await expectRefused(rebuilt({ [manifest.deposits[0].path]: undefined }), 400, 'INVALID_BUNDLE', 'missingEntry');
    // A file of rows listed sixty times: restored sixty times before, its rows counted sixty times.
    const listedOften = structuredClone(manifest);
    listedOften.data[0].files = Array.from({ length: 60 }, () => manifest.data[0].files[0]);
    await expectRefused(
      rebuilt({ 'manifest.json': strToU8(JSON.stringify(listedOften)) }),
      400,
      'INVALID_BUNDLE',
      'fileListedTwice',
    );
  });

  it('refuses an entry that would land outside the archive (zip-slip)', async () => {
    await expectRefused(
      rebuilt({ '../../etc/cron.d/evil': strToU8('* * * * * root true') }),
      400,
      'INVALID_BUNDLE',
      'zipUnsafeEntry',
    );
    await expectRefused(rebuilt({ '/tmp/evil.csv': strToU8('x') }), 400, 'INVALID_BUNDLE', 'zipUnsafeEntry');
  });

  it('refuses zip bombs: too much declared, or more inflated than declared', async () => {
    await expectRefused(
      rebuilt({ 'padding.bin': new Uint8Array(16 * 1024 * 1024) }),
      400,
      'INVALID_BUNDLE',
      'zipTooLarge',
    );
    const target = manifest.data[0].files[0];
    const lying = patchDeclaredSize(
      rebuilt({ [target.path]: new Uint8Array(4 * 1024 * 1024).fill(0x41) }),
      target.path,
      target.size,
    );
    await expectFailedStream(lying, 'INVALID_BUNDLE', { reason: 'zipEntryLargerThanDeclared', entry: target.path });
  });

  it('refuses a backup whose configuration outlasts the validation budget (its worker stopped), keeping nothing', async () => {
    // The budget itself is proven by configurationOffThread.test.ts; here, what a restore answers when it is spent.
    const validate = vi
      .spyOn(target.server.ctx.configurations, 'validate')
      .mockRejectedValueOnce(new ConfigurationOverBudget(30_000));
    try {
      await expectFailedStream(backup, 'CONFIGURATION_CHECK_BUDGET_EXCEEDED', { budgetSeconds: 30 });
    } finally {
      validate.mockRestore();
    }
  });

  it('refuses a charter that is not a PDF before any work, as its upload does', async () => {
    const charter = manifest.additionalFiles.find((f) => f.fileType === '__charter__')!;
    const html = strToU8('<html><script>alert(1)</script></html>');
    const edited: BundleManifest = JSON.parse(JSON.stringify(manifest));
    Object.assign(
      edited.additionalFiles.find((f) => f.path === charter.path)!,
      { size: html.byteLength, sha256: sha256(html) },
    );
    const answer = await restore(
      targetAdmin,
      'surveys',
      rebuilt({ [charter.path]: html, 'manifest.json': strToU8(JSON.stringify(edited)) }),
    );
    expect(answer.status, answer.text).toBe(415);
    expect(answer.body).toMatchObject({
      code: 'CHARTER_NOT_PDF',
      params: { fileName: 'charte.pdf', entry: charter.path },
    });
    await expectNothingLeft('surveys');
  });

  it('refuses tampered files and files the CSV engine refuses, keeping nothing of what was loaded before', async () => {
    const projects = manifest.data[0].files[0];
    const altered = text(files[projects.path]).replace('Alpes', 'Alpez');
    await expectFailedStream(rebuilt({ [projects.path]: strToU8(altered) }), 'INVALID_BUNDLE', {
      reason: 'checksumMismatch',
      entry: projects.path,
    });
    const species = manifest.data[2].files[0];
    await expectFailedStream(
      withCsv(species.path, '"code";"name"\n"tichodroma";"Tichodrome"\n"tichodroma";"Twice"\n'),
      'BUNDLE_INVALID_CSV',
      { entry: species.path, dataName: 'species' },
    );
    // Deposited versions are written in parts as they are read: a tampered one's last part refuses the whole
    // restore (an additional file's: largeFiles.test.ts).
    const version = manifest.deposits.at(-1)!;
    const versionBytes = files[version.path]!;
    const lastByteChanged = Uint8Array.from(versionBytes, (byte, i) =>
      i === versionBytes.length - 2 ? byte ^ 1 : byte,
    );
    await expectFailedStream(rebuilt({ [version.path]: lastByteChanged }), 'INVALID_BUNDLE', {
      reason: 'checksumMismatch',
      entry: version.path,
    });
  });

  it('counts every line a restored CSV refuses and names the first 20 of 25', async () => {
    const species = manifest.data[2].files[0];
    const twice = Array.from({ length: 25 }, (_, i) => `"sp${i}";"Species ${i}"\n"sp${i}";"Twice"\n`).join('');
    const answer = await restore(targetAdmin, 'surveys', withCsv(species.path, `"code";"name"\n${twice}`));
    expect(answer.status, answer.text).toBe(200);
    const [error] = streamEvents(answer.text)
      .filter((e) => e.type === 'error')
      .map((e) => e.result!);
    expect(error.code).toBe('BUNDLE_INVALID_CSV');
    expect(error.params.errorCount).toBe(25);
    // The second line of each pair, in line order.
    const errors = error.params.errors as Array<{ lineNumber: number }>;
    expect(errors.map((e) => e.lineNumber)).toEqual(Array.from({ length: 20 }, (_, i) => 2 * i + 3));
    await expectNothingLeft('surveys');
  });
});
