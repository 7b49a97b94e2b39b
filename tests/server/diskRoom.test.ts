/**
 * Room on the database's disk (issue 22, "never freeze"), without a disk that fills: the server reads its free space
 * from the test. An upload whose declared size cannot fit is refused with 507 STORAGE_FULL before its body is read;
 * one sent without its size stops at the reserve as its rows are written, keeps nothing and has its space given back
 * (a vacuum) before the refusal is answered; below the reserve, sign-in and reads go on and every upload is refused
 * at once; once there is room, the next upload goes through. So for a deposit, whose file is written in parts as it
 * arrives: the parts written before the reserve was reached are removed, their space given back. A restore that
 * reaches the reserve is refused with STORAGE_FULL (not an internal error) and leaves nothing; with room, it goes
 * through. So is the creation of an application whose configuration would eat into the reserve.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerBeforeBody, streamedForm } from '../processes/operator.ts';
import { HttpClient } from './httpClient.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { OBSERVATORY_YAML, ROOT, createApplication, csvForm, q } from './dataFixtures.ts';
import { APPLICATION, VERSIONED_YAML, readingsCsv, sitesCsv, yearDataset } from '../bench/versionedData.ts';

const MB = 1024 * 1024;
const RESERVE = 64 * MB;
const FACTOR = 10;
/** A reference file of `rows` habitats: more than one batch of rows once past 2,000. */
const habitats = (rows: number) =>
  `code,label_fr,label_en\n${Array.from({ length: rows }, (_, i) => `h${i},Habitat ${i},Habitat ${i}`).join('\n')}\n`;

let server: TestServer;
let admin: HttpClient;
let token: string;
/** What the server reads as the free space of its database's disk, by call. */
let freeSpace: (call: number) => number = () => 10_000 * MB;
let reads = 0;

beforeAll(async () => {
  server = await startTestServer(
    { admin: ROOT },
    { STORAGE_RESERVE_MB: String(RESERVE / MB), UPLOAD_SPACE_FACTOR: String(FACTOR) },
    { freeSpace: async () => freeSpace(reads++) },
  );
  admin = new HttpClient(`${server.url}/api/v1`);
  const login = await admin.post('/login', { form: { login: ROOT.login, password: ROOT.password } });
  expect(login.status, login.text).toBe(200);
  token = login.headers.get('authorization')!.replace(/^Bearer /, '');
  await createApplication(admin, 'observatory', OBSERVATORY_YAML);
  expect(
    (await admin.post('/applications/observatory/references/habitats', { body: csvForm('habitats.csv', habitats(10)) }))
      .status,
  ).toBe(201);
  await createApplication(admin, APPLICATION, VERSIONED_YAML);
  expect(
    (await admin.post(`/applications/${APPLICATION}/references/sites`, { body: csvForm('sites.csv', sitesCsv()) }))
      .status,
  ).toBe(201);
  await createApplication(
    admin,
    'fieldbook',
    readFileSync(path.resolve(import.meta.dirname, '../fixtures/configurations/fieldbook.yaml')),
  );
});
afterAll(() => server?.close());

const storedHabitats = async () =>
  (await admin.get(`/applications/observatory/references/habitats${q({ offset: 0, limit: 1 })}`)).body
    .totalRows as number;

/** The start of a multipart upload that declares `declared` bytes: the answer must come before the rest. */
function declaredUpload(apiPath: string, declared: number) {
  const boundary = 'terrain-disk-room';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.csv"\r\nContent-Type: text/csv\r\n\r\n${habitats(1000)}`;
  return answerBeforeBody(
    `${server.url}/api/v1${apiPath}`,
    { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    head,
    declared,
  );
}

/** A form sent as a stream, without its size. */
async function streamedUpload(apiPath: string, form: FormData) {
  const streamed = streamedForm(form);
  const answer = await fetch(`${server.url}/api/v1${apiPath}`, {
    ...streamed,
    method: 'POST',
    headers: { ...(streamed.headers as Record<string, string>), authorization: `Bearer ${token}` },
  });
  return { status: answer.status, body: await answer.json() };
}

const lastVacuum = async (table = 'data_rows') =>
  (
    await sql<{
      at: Date | null;
    }>`select last_vacuum as at from pg_stat_user_tables where relname = ${table}`.execute(server.server.ctx.db)
  ).rows[0]?.at ?? null;

const countOf = async (table: 'file_parts' | 'deposit_files' | 'additional_files') =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(server.server.ctx.db)).rows[0]!
    .n;

describe('an upload that cannot fit on the database disk', () => {
  it('is refused with 507 STORAGE_FULL before its body is read, when its declared size times the factor would eat into the reserve', async () => {
    const declared = 50 * MB;
    freeSpace = () => RESERVE + declared * FACTOR - 1;
    expect(await declaredUpload('/applications/observatory/references/habitats', declared)).toEqual({
      status: 507,
      body: { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} },
    });
    expect(await declaredUpload('/applications/observatory/data/readings', declared)).toMatchObject({ status: 507 });
    expect(await storedHabitats()).toBe(10);
    // An additional file is kept as it is sent: its own size counts, not the factor.
    freeSpace = () => RESERVE + declared - 1;
    expect(await declaredUpload('/applications/fieldbook/additionalFiles/protocols', declared)).toMatchObject({
      status: 507,
      body: { code: 'STORAGE_FULL' },
    });
    expect(await declaredUpload('/applications/newbook/upload-bundle', declared)).toMatchObject({
      status: 507,
      body: { code: 'STORAGE_FULL' },
    });
  });

  it('sent without its size, stops at the reserve as its rows are written, keeps nothing and has its space given back before the answer', async () => {
    const vacuumedBefore = await lastVacuum();
    const first = reads;
    // The check before the body and the first batch of rows find room; the second batch would eat into the reserve.
    freeSpace = (call) => (call - first < 2 ? RESERVE + 100 * MB : RESERVE + 1000);
    const refused = await streamedUpload(
      '/applications/observatory/references/habitats',
      csvForm('habitats.csv', habitats(5000)),
    );
    expect(refused).toEqual({ status: 507, body: { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} } });
    expect(reads - first).toBeGreaterThanOrEqual(3);
    expect(await storedHabitats()).toBe(10);
    const vacuumed = await lastVacuum();
    expect(vacuumed).not.toBeNull();
    expect(vacuumed!.getTime()).toBeGreaterThan(vacuumedBefore?.getTime() ?? 0);
  });
});

describe('a CSV file arriving when the disk has no room left', () => {
  it('is refused with 507 as it is spooled, before any row is written, and its spooled copy removed', async () => {
    const first = reads;
    // The check before the body finds room; the spool's own check, at the file's first bytes, does not.
    freeSpace = (call) => (call - first < 1 ? RESERVE + 100 * MB : RESERVE + 1000);
    const refused = await streamedUpload(
      '/applications/observatory/references/habitats',
      csvForm('habitats.csv', habitats(5000)),
    );
    expect(refused).toEqual({ status: 507, body: { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} } });
    expect(reads - first).toBe(2);
    expect(await storedHabitats()).toBe(10);
    expect(await readdir(path.join(server.dataDir, 'spool'))).toEqual([]);
    freeSpace = () => 10_000 * MB;
  });
});

describe('a deposit that cannot fit on the database disk', () => {
  it('sent without its size, stops at the reserve as its parts are written, keeps none and has their space given back before the answer', async () => {
    const vacuumedBefore = await lastVacuum('file_parts');
    const [files, parts] = [await countOf('deposit_files'), await countOf('file_parts')];
    const first = reads;
    // The check before the body and the file's first two parts find room; the third would eat into the reserve.
    freeSpace = (call) => (call - first < 3 ? RESERVE + 100 * MB : RESERVE + 1000);
    const refused = await streamedUpload(
      `/applications/${APPLICATION}/data/readings`,
      csvForm('readings.csv', readingsCsv(150_000, 1, 2021).text, yearDataset(1, 2021)),
    );
    expect(refused).toEqual({ status: 507, body: { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} } });
    expect(reads - first).toBeGreaterThanOrEqual(3);
    expect([await countOf('deposit_files'), await countOf('file_parts')]).toEqual([files, parts]);
    const vacuumed = await lastVacuum('file_parts');
    expect(vacuumed).not.toBeNull();
    expect(vacuumed!.getTime()).toBeGreaterThan(vacuumedBefore?.getTime() ?? 0);
  });
});

describe('an additional file that cannot fit on the database disk', () => {
  it('sent without its size, stops at the reserve as its parts are written: 507, no part kept, the refusal answered', async () => {
    const [files, parts] = [await countOf('additional_files'), await countOf('file_parts')];
    const first = reads;
    freeSpace = (call) => (call - first < 3 ? RESERVE + 100 * MB : RESERVE + 1000);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(randomBytes(8 * MB))]), 'photo.jpg');
    form.append('params', JSON.stringify({ fileName: 'photo.jpg', comment: 'c', fields: { caption: 'Lac' } }));
    const refused = await streamedUpload('/applications/fieldbook/additionalFiles/photos', form);
    expect(refused).toEqual({ status: 507, body: { code: 'STORAGE_FULL', message: 'STORAGE_FULL', params: {} } });
    expect([await countOf('additional_files'), await countOf('file_parts')]).toEqual([files, parts]);
  });

  it('refused by the check before its body, writes nothing and vacuums nothing', async () => {
    const vacuumedBefore = await lastVacuum('file_parts');
    freeSpace = () => RESERVE / 2;
    const form = new FormData();
    form.append('params', JSON.stringify({ fileName: 'photo.jpg', comment: 'c', fields: { caption: 'Lac' } }));
    form.append('file', new Blob([new Uint8Array(randomBytes(MB))]), 'photo.jpg');
    expect((await streamedUpload('/applications/fieldbook/additionalFiles/photos', form)).status).toBe(507);
    expect(await lastVacuum('file_parts')).toEqual(vacuumedBefore);
    freeSpace = () => 10_000 * MB;
  });
});

describe('a restore that cannot fit on the database disk', () => {
  it('stops at the reserve as its rows are written, leaves nothing, and goes through once there is room', async () => {
    freeSpace = () => 10_000 * MB;
    await createApplication(admin, 'restorable', OBSERVATORY_YAML);
    // Several batches on either engine (500 rows on the embedded database, 2,000 on PostgreSQL).
    const loaded = await admin.post('/applications/restorable/references/habitats', {
      body: csvForm('habitats.csv', habitats(9000)),
    });
    expect(loaded.status, loaded.text).toBe(201);
    const saved = await fetch(`${server.url}/api/v1/applications/restorable/upload-bundle?withData=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(saved.status).toBe(200);
    const backup = new Uint8Array(await saved.arrayBuffer());
    const restore = () => {
      const form = new FormData();
      form.append('file', new Blob([backup]), 'backup.zip');
      return admin.post('/applications/restored/upload-bundle', { body: form });
    };
    const rowsOf = async (name: string) =>
      (
        await sql<{ n: number }>`
          select count(*)::int as n from data_rows d join applications a on a.id = d.application_id
          where a.name = ${name}`.execute(server.server.ctx.db)
      ).rows[0]!.n;
    const leftBehind = async () =>
      (
        await sql<{ n: number }>`
          select count(*)::int as n from data_rows where application_id not in (select id from applications)`.execute(
          server.server.ctx.db,
        )
      ).rows[0]!.n;

    const first = reads;
    // The check before the restore and its first batches find room; a later batch would eat into the reserve.
    freeSpace = (call) => (call - first < 3 ? RESERVE + 100 * MB : RESERVE + 1000);
    const refused = await restore();
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('STORAGE_FULL');
    expect(refused.text).not.toContain('"type":"result"');
    expect(reads - first).toBeGreaterThanOrEqual(3);
    expect((await admin.get('/applications/restored')).status).toBe(404);
    expect(await rowsOf('restored')).toBe(0);
    expect(await leftBehind()).toBe(0);

    freeSpace = () => 10_000 * MB;
    const restored = await restore();
    expect(restored.text, restored.text).toContain('"type":"result"');
    expect(await rowsOf('restored')).toBe(9000);
  });
});

describe('an application created when the disk is full', () => {
  it('is refused with STORAGE_FULL (not an internal error) and leaves nothing', async () => {
    // A configuration of more than 10,000 characters is written as a bulk write: the reserve is kept from it.
    const padded = `${OBSERVATORY_YAML}\n${Array.from({ length: 300 }, (_, i) => `# note ${i} ${'x'.repeat(40)}`).join('\n')}\n`;
    freeSpace = () => RESERVE + 1000;
    // As the outbox sends it: the same key again once there is room runs it again, the failure not kept as its answer.
    const create = () =>
      admin.post('/applications/crowded', {
        body: csvForm('crowded.yaml', padded),
        headers: { 'Idempotency-Key': 'crowded-creation' },
      });
    const refused = await create();
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('"code":"STORAGE_FULL"');
    expect(refused.text).not.toContain('INTERNAL_ERROR');
    expect((await admin.get('/applications/crowded')).status).toBe(404);
    freeSpace = () => 10_000 * MB;
    const created = await create();
    expect(created.text).toContain('"type":"result"');
    expect((await admin.get('/applications/crowded')).status).toBe(200);
  });
});

describe('below the reserve', () => {
  it('sign-in and reads go on, every upload is refused at once; once there is room the next upload goes through', async () => {
    freeSpace = () => RESERVE / 2;
    const visitor = new HttpClient(`${server.url}/api/v1`);
    const signIn = await visitor.post('/login', { form: { login: ROOT.login, password: ROOT.password } });
    expect(signIn.status, signIn.text).toBe(200);
    expect((await visitor.get('/me')).status).toBe(200);
    expect(await storedHabitats()).toBe(10);
    expect(
      (
        await admin.post('/applications/observatory/references/habitats', {
          body: csvForm('habitats.csv', habitats(3)),
        })
      ).status,
    ).toBe(507);
    expect(
      (await streamedUpload('/applications/observatory/references/habitats', csvForm('habitats.csv', habitats(3))))
        .status,
    ).toBe(507);

    freeSpace = () => 10_000 * MB;
    const accepted = await admin.post('/applications/observatory/references/habitats', {
      body: csvForm('habitats.csv', habitats(3000)),
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(await storedHabitats()).toBe(3000);
  });
});
