import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn } from './accountFixtures.ts';
import { api, expectNoLeakInRecordedAnswers, type ApiClient } from './apiClient.ts';
import {
  creatorUser,
  grantApplicationRole,
  plainUser,
  sessionOf,
  streamEvents,
  type SignedInUser,
} from './applicationFixtures.ts';
import { csvForm, q, ROOT, waitForJob } from './dataFixtures.ts';
import { minimalPdf } from '../fixtures/minimalPdf.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * The usage charter over HTTP (issue 10) on the surveys application (references projects, sites, species; data
 * type counts with one published version): a manager uploads the PDF, users who must accept it are refused every
 * data, reference, file and export call with 403 CHARTER_NOT_SIGNED until they accept it with PUT /users
 * {login, email, charte}; managers, user managers, creators of the name and platform administrators never sign;
 * a new upload asks again.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));

const pdfForm = (fileName: string, bytes: Uint8Array | string) =>
  csvForm(fileName, bytes, { id: null, fileType: '__charte__' });

let server: TestServer;
let admin: ApiClient;
let applicationId: string;
let fileId: string;
let reader: SignedInUser;
let manager: SignedInUser;
let userManager: SignedInUser;
let creator: SignedInUser;

/** Every call of the application that reads its data: references, data, exports, versions, deposited files, request options. */
const dataCalls = () => [
  `/applications/surveys/references/sites${q({ limit: 10 })}`,
  '/applications/surveys/references/sites/csv',
  '/applications/surveys/references/sites/zip',
  '/applications/surveys/references/sites/rows',
  `/applications/surveys/data/counts/json${q({ limit: 10 })}`,
  '/applications/surveys/data/counts/csv',
  '/applications/surveys/data/counts/zip',
  '/applications/surveys/synthesis/counts',
  '/applications/surveys/synthesis/counts/individuals',
  '/applications/surveys/filesOnRepository/counts',
  `/applications/surveys/file/${fileId}`,
  `/applications/surveys/file/${fileId}/publication-state`,
  // The rights-request form's options are rows of references too (scope trees, choices).
  '/applications/surveys/rightsRequest/options',
];

async function statuses(client: ApiClient) {
  const answers = [];
  for (const call of dataCalls()) answers.push(await client.get(call));
  return answers.map((a) => [a.status, a.status === 200 ? 'ok' : a.body.code]);
}

const everyCall = (status: number, code: string) => dataCalls().map(() => [status, code]);

async function upload(
  client: ApiClient,
  bytes: Uint8Array | string,
  fileName = 'charte.pdf',
  fileType = '__charter__',
) {
  return client.post(`/applications/surveys/additionalFiles/${fileType}`, { body: pdfForm(fileName, bytes) });
}

const view = async (client: ApiClient) => (await client.get('/applications/surveys')).body;
const accept = (user: SignedInUser) =>
  user.client.put('/users', { json: { login: user.login, email: user.email, charte: applicationId } });

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  admin = await signedIn(server, ROOT);
  const created = await admin.post('/applications/surveys', {
    body: csvForm('surveys.yaml', file('configurations/surveys.yaml')),
  });
  expect(created.text).toContain('"type":"result"');
  for (const [reference, name] of [
    ['projects', 'surveys-projects.csv'],
    ['sites', 'surveys-sites.csv'],
    ['species', 'surveys-species.csv'],
  ]) {
    expect(
      (await admin.post(`/applications/surveys/references/${reference}`, { body: csvForm(name, file(`csv/${name}`)) }))
        .status,
    ).toBe(201);
  }
  const deposit = await admin.post('/applications/surveys/data/counts', {
    body: csvForm('june.csv', 'project;site;species;day;individuals\nalps;lac_blanc;lagopus;02/06/2024;3\n', {
      binaryfiledataset: {
        datatype: 'counts',
        requiredAuthorizations: { project: 'alps', site: 'lac_blanc' },
        from: '2024-06-01',
        to: '2024-06-30',
      },
      topublish: true,
    }),
  });
  expect(deposit.status, deposit.text).toBe(202);
  fileId = deposit.body.fileId;
  expect((await waitForJob(admin, 'surveys', fileId)).job.status).toBe('done');
  applicationId = (await view(admin)).id;

  reader = await plainUser(server, 'reader');
  manager = await plainUser(server, 'manager');
  userManager = await plainUser(server, 'usermanager');
  creator = await creatorUser(server, admin, ['surv.*']);
  await grantApplicationRole(admin, 'applicationManager', manager.login, 'surveys');
  await grantApplicationRole(admin, 'userManager', userManager.login, 'surveys');
  const granted = await admin.post('/applications/surveys/authorization', {
    json: {
      name: 'readers',
      description: 'everything, read only',
      usersId: [reader.login, userManager.login],
      authorizationForAll: {
        projects: ['extraction'],
        sites: ['extraction'],
        species: ['extraction'],
        counts: ['extraction'],
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
}, 120_000);

afterAll(async () => {
  expectNoLeakInRecordedAnswers();
  await server?.close();
});

describe('an application without a charter', () => {
  it('asks nobody to accept anything, and has no charter to show', async () => {
    expect(await statuses(reader.client)).toEqual(everyCall(200, 'ok'));
    expect(await view(reader.client)).toMatchObject({
      hasCharter: false,
      hasSignedCharte: false,
      hasSignedLastCharte: true,
      mustSignCharter: false,
    });
    expect((await view(reader.client)).charterUploadedAt).toBeUndefined();
    const missing = await reader.client.get('/applications/surveys/charter');
    expect([missing.status, missing.body.code, missing.body.params]).toEqual([404, 'NO_CHARTER', { name: 'surveys' }]);
  });
});

describe('uploading the charter', () => {
  it('is for managers only: refused to visitors, users with data rights and user managers, before the file is read', async () => {
    expect((await upload(api(server), minimalPdf('visitor'))).status).toBe(401);
    for (const someone of [reader, userManager]) {
      const refused = await upload(someone.client, minimalPdf(someone.login));
      expect([refused.status, refused.body.code]).toEqual([403, 'NO_RIGHT_FOR_APPLICATION_MANAGEMENT']);
    }
    expect((await view(reader.client)).hasCharter).toBe(false);
  });

  it('refuses what is not a PDF with 415, an empty file with 400 and a file over 10 MB with 413', async () => {
    const html = await upload(manager.client, '<html><body>charte</body></html>', 'charte.pdf');
    expect([html.status, html.body.code, html.body.params]).toEqual([
      415,
      'CHARTER_NOT_PDF',
      { fileName: 'charte.pdf' },
    ]);
    const empty = await upload(manager.client, new Uint8Array(0));
    expect([empty.status, empty.body.code]).toEqual([400, 'EMPTY_FILE']);
    const large = new Uint8Array(10 * 1024 * 1024 + 1);
    large.set(minimalPdf('large'));
    const tooLarge = await upload(manager.client, large);
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect((await view(reader.client)).hasCharter).toBe(false);
  });

  it('stores the PDF a manager sends, which every signed-in user may then read', async () => {
    const pdf = minimalPdf('first version');
    const stored = await upload(manager.client, pdf, 'Charte d’usage.pdf');
    expect(stored.status, stored.text).toBe(200);
    expect(stored.body).toMatch(/^[0-9a-f-]{36}$/);
    const outsider = await plainUser(server, 'outsider');
    const shown = await fetch(`${server.url}/api/v1/applications/surveys/charter`, {
      headers: { authorization: `Bearer ${outsider.token}` },
    });
    expect(shown.status).toBe(200);
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(pdf);
    expect(shown.headers.get('content-type')).toBe('application/pdf');
    expect(shown.headers.get('content-disposition')).toBe(
      `inline; filename="Charte d_usage.pdf"; filename*=UTF-8''Charte%20d%E2%80%99usage.pdf`,
    );
    // Shown in an iframe of the portal's own pages, and of no other site.
    expect(shown.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect((await api(server).get('/applications/surveys/charter')).status).toBe(401);
    const charterView = await view(reader.client);
    expect(charterView).toMatchObject({
      hasCharter: true,
      hasSignedCharte: false,
      hasSignedLastCharte: false,
      mustSignCharter: true,
    });
    expect(Date.parse(charterView.charterUploadedAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('until the charter is accepted', () => {
  it('refuses every data, reference, file and export call to a user with rights, with 403 CHARTER_NOT_SIGNED', async () => {
    expect(await statuses(reader.client)).toEqual(everyCall(403, 'CHARTER_NOT_SIGNED'));
    const refused = await reader.client.get('/applications/surveys/data/counts/json');
    expect(refused.body.params).toEqual({ name: 'surveys', applicationId });
    // The application itself stays readable: that is where the interface learns that the charter is due.
    expect((await reader.client.get('/applications/surveys?filter=ALL')).status).toBe(200);
  });

  it('gives no row counts nor write versions, in the application or the list, while the rows are refused', async () => {
    const figures = (body: { lineCounts?: object; entryVersions?: object }) => [body.lineCounts, body.entryVersions];
    const whole = async (client: ApiClient) => (await client.get('/applications/surveys?filter=ALL')).body;
    expect(figures(await whole(reader.client))).toEqual([{}, {}]);
    const listed = streamEvents((await reader.client.get('/applications?filter=ALL')).text).find(
      (e) => e.type === 'result' && e.result.name === 'surveys',
    )!;
    expect(figures(listed.result)).toEqual([{}, {}]);
    // A manager, who never signs, is given them: the reader gets the same once they accept.
    expect((await whole(manager.client)).lineCounts).toMatchObject({ counts: 1, species: expect.any(Number) });
  });

  it('refuses writes too', async () => {
    const refused = await reader.client.post('/applications/surveys/references/sites', {
      body: csvForm('sites.csv', file('csv/surveys-sites.csv')),
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'CHARTER_NOT_SIGNED']);
  });

  it('lets managers, user managers, creators of the name and platform administrators in without accepting', async () => {
    for (const exempt of [manager.client, userManager.client, creator.client, admin]) {
      expect(await statuses(exempt)).toEqual(everyCall(200, 'ok'));
      expect(await view(exempt)).toMatchObject({ hasCharter: true, mustSignCharter: false });
    }
  });

  it('answers visitors as before: the charter is asked of accounts', async () => {
    const visitor = api(server);
    expect((await visitor.get('/applications/surveys/data/counts/json')).status).toBe(401);
  });
});

describe('accepting the charter with PUT /users {login, email, charte}', () => {
  it('needs the session of the account itself', async () => {
    const noSession = await api(server).put('/users', {
      json: { login: reader.login, email: reader.email, charte: applicationId },
    });
    expect([noSession.status, noSession.body.code]).toEqual([401, 'NOT_AUTHENTICATED']);
    const forAnother = await manager.client.put('/users', {
      json: { login: reader.login, email: reader.email, charte: applicationId },
    });
    expect([forAnother.status, forAnother.body.code]).toEqual([403, 'BAD_LOGIN_FOR_ACTION']);
    const wrongEmail = await reader.client.put('/users', {
      json: { login: reader.login, email: 'someone@example.org', charte: applicationId },
    });
    expect([wrongEmail.status, wrongEmail.body.code]).toEqual([403, 'INVALID_ACCOUNT']);
    for (const charte of ['00000000-0000-4000-8000-000000000000', 'surveys']) {
      const unknown = await reader.client.put('/users', { json: { login: reader.login, email: reader.email, charte } });
      expect([unknown.status, unknown.body.code]).toEqual([404, 'NO_SUCH_APPLICATION']);
    }
    expect(await statuses(reader.client)).toEqual(everyCall(403, 'CHARTER_NOT_SIGNED'));
  });

  it('records the time of acceptance and opens the data', async () => {
    const before = Date.now();
    const accepted = await accept(reader);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ userId: reader.id, login: reader.login, accountState: 'active' });
    expect(Date.parse(accepted.body.chartes[applicationId])).toBeGreaterThanOrEqual(before - 1000);
    expect((await reader.client.get('/me')).body.chartes).toEqual(accepted.body.chartes);
    expect(await statuses(reader.client)).toEqual(everyCall(200, 'ok'));
    expect((await reader.client.get('/applications/surveys?filter=ALL')).body).toMatchObject({
      hasSignedCharte: true,
      hasSignedLastCharte: true,
      mustSignCharter: false,
      lineCounts: { counts: 1 },
      entryVersions: { counts: expect.any(Number), sites: expect.any(Number) },
    });
  });

  it('is applied once when the outbox sends it again with the same Idempotency-Key', async () => {
    const someone = await plainUser(server, 'twice');
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const body = { login: someone.login, email: someone.email, charte: applicationId };
    const first = await someone.client.put('/users', { json: body, headers });
    const again = await someone.client.put('/users', { json: body, headers });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.chartes).toEqual(first.body.chartes);
  });

  it('leaves the acceptances of other applications in place', async () => {
    const other = await plainUser(server, 'other');
    const otherId = '11111111-1111-4111-8111-111111111111';
    await server.server.ctx.db
      .updateTable('users')
      .set({ chartes: JSON.stringify({ [otherId]: '2024-01-01T00:00:00.000Z' }) })
      .where('id', '=', other.id)
      .execute();
    const accepted = await accept(other);
    expect(Object.keys(accepted.body.chartes).sort()).toEqual([applicationId, otherId].sort());
  });
});

describe('a new charter', () => {
  let previousUploadedAt: string;

  it('asks again everyone who accepted the previous one', async () => {
    previousUploadedAt = (await view(reader.client)).charterUploadedAt;
    expect(previousUploadedAt).toMatch(/^\d{4}-/);
    const replaced = await upload(manager.client, minimalPdf('second version'), 'charte-2025.pdf', '__charte__');
    expect(replaced.status, replaced.text).toBe(200);
    expect(await statuses(reader.client)).toEqual(everyCall(403, 'CHARTER_NOT_SIGNED'));
    expect(await view(reader.client)).toMatchObject({
      hasCharter: true,
      hasSignedCharte: true,
      hasSignedLastCharte: false,
      mustSignCharter: true,
    });
    const shown = await fetch(`${server.url}/api/v1/applications/surveys/charter`, {
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(new TextDecoder().decode(await shown.arrayBuffer())).toContain('second version');
  });

  it('is the one the application list speaks of', async () => {
    const listed = streamEvents((await reader.client.get('/applications')).text).find(
      (e) => e.type === 'result' && e.result.name === 'surveys',
    )!;
    expect(listed.result).toMatchObject({
      hasCharter: true,
      hasSignedCharte: true,
      hasSignedLastCharte: false,
      mustSignCharter: true,
    });
  });

  it('does not count an acceptance of the previous one, sent late from the outbox: 409 CHARTER_CHANGED', async () => {
    const late = await reader.client.put('/users', {
      json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt: previousUploadedAt },
    });
    expect([late.status, late.body.code, late.body.params]).toEqual([409, 'CHARTER_CHANGED', { name: 'surveys' }]);
    expect(await view(reader.client)).toMatchObject({ hasSignedLastCharte: false, mustSignCharter: true });
    for (const charterUploadedAt of ['yesterday', '']) {
      const malformed = await reader.client.put('/users', {
        json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt },
      });
      expect([malformed.status, malformed.body.code], charterUploadedAt).toEqual([400, 'BAD_REQUEST']);
    }
    expect(await statuses(reader.client)).toEqual(everyCall(403, 'CHARTER_NOT_SIGNED'));
  });

  it('lets the user in again once accepted, as read', async () => {
    const current = (await view(reader.client)).charterUploadedAt;
    const accepted = await reader.client.put('/users', {
      json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt: current },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await statuses(reader.client)).toEqual(everyCall(200, 'ok'));
    const listed = streamEvents((await reader.client.get('/applications')).text).find(
      (e) => e.type === 'result' && e.result.name === 'surveys',
    )!;
    expect(listed.result).toMatchObject({ hasSignedCharte: true, hasSignedLastCharte: true, mustSignCharter: false });
  });

  it('asks a user signed in anew as well (the rule reads the database, not the session)', async () => {
    const fresh = await sessionOf(server, await activeAccount(server, newIdentity('fresh')));
    await admin.post('/applications/surveys/authorization', {
      json: {
        name: 'fresh',
        description: 'reading',
        usersId: [fresh.login],
        authorizationForAll: { sites: ['extraction'] },
      },
    });
    const refused = await fresh.client.get('/applications/surveys/references/sites');
    expect([refused.status, refused.body.code]).toEqual([403, 'CHARTER_NOT_SIGNED']);
  });
});

describe('instances whose clocks disagree', () => {
  it('uploads a new charter though an acceptance stored is no time (an operator’s edit)', async () => {
    const odd = await plainUser(server, 'oddacceptance');
    await server.server.ctx.db
      .updateTable('users')
      .set({ chartes: JSON.stringify({ [applicationId]: 'not a time' }) })
      .where('id', '=', odd.id)
      .execute();
    const replaced = await upload(manager.client, minimalPdf('odd version'), 'charte-odd.pdf', '__charte__');
    expect(replaced.status, replaced.text).toBe(200);
    const current = (await view(reader.client)).charterUploadedAt;
    const accepted = await reader.client.put('/users', {
      json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt: current },
    });
    expect(accepted.status, accepted.text).toBe(200);
  });

  // One instance's clock an hour behind the one that recorded the acceptances: times compared across them.
  const BEHIND = 3_600_000;

  it('asks again for a charter stamped by a clock behind every acceptance, and counts an acceptance stamped so', async () => {
    expect(await view(reader.client)).toMatchObject({ mustSignCharter: false });
    server.clock.advance(-BEHIND);
    try {
      const replaced = await upload(manager.client, minimalPdf('third version'), 'charte-2026.pdf', '__charte__');
      expect(replaced.status, replaced.text).toBe(200);
      expect(await view(reader.client)).toMatchObject({ hasSignedLastCharte: false, mustSignCharter: true });
      expect(await statuses(reader.client)).toEqual(everyCall(403, 'CHARTER_NOT_SIGNED'));
      const current = (await view(reader.client)).charterUploadedAt;
      const accepted = await reader.client.put('/users', {
        json: { login: reader.login, email: reader.email, charte: applicationId, charterUploadedAt: current },
      });
      expect(accepted.status, accepted.text).toBe(200);
      expect(await view(reader.client)).toMatchObject({ hasSignedLastCharte: true, mustSignCharter: false });
      expect(await statuses(reader.client)).toEqual(everyCall(200, 'ok'));
    } finally {
      server.clock.advance(BEHIND);
    }
  });
});
