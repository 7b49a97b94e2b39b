import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn } from './accountFixtures.ts';
import { api, type ApiClient } from './apiClient.ts';
import { csvForm, ROOT, waitForJob } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * What the versions of `counts` (surveys) tell those whose rights cover only part of them (audit of partial
 * readers): a version they may not open answers as one that does not exist, on every route naming a version by its
 * id; a failed publication names only the overlapping versions its viewer may open, and counts the others.
 *
 * The owner publishes, in alps/lac_blanc, Y (16 May to 15 June 2024) and Z (20 to 25 June 2024), and in
 * pyrenees/mont_joly B (June 2024); U (alps/lac_blanc, August 2024) stays unpublished.
 * - publisher: publication on counts of project alps during June 2024 (covers Z, not Y);
 * - reader: extraction on counts of project alps during June 2024 (reads part of Y, none of B nor U);
 * - stranger: signed in, nothing granted.
 */

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => readFileSync(path.join(fixtures, name));
const HEADER = 'project;site;species;day;individuals';
const NO_VERSION = '6f1c2d3e-4a5b-4c6d-8e7f-901234567890';
const JUNE = { fromDay: '2024-06-01', toDay: '2024-06-30' };

const NAMES = {
  Y: 'alps~lac_blanc~2024-05-16~2024-06-15.csv',
  Z: 'alps~lac_blanc~2024-06-20~2024-06-25.csv',
  B: 'pyrenees~mont_joly~2024-06-01~2024-06-30.csv',
  U: 'alps~lac_blanc~2024-08-01~2024-08-31.csv',
  X: 'alps~lac_blanc~2024-06-01~2024-06-30.csv',
};

let server: TestServer;
let owner: ApiClient;
let publisher: ApiClient;
let reader: ApiClient;
let stranger: ApiClient;
const ids: Record<string, string> = {};

function depositForm(name: string, line: string, publish: boolean) {
  const [project, site, from, to] = name.replace(/\.csv$/, '').split('~');
  return csvForm(name, `${HEADER}\n${line}\n`, {
    binaryfiledataset: { datatype: 'counts', requiredAuthorizations: { project, site }, from, to },
    topublish: publish,
  });
}

async function deposit(client: ApiClient, name: string, line: string, publish: boolean) {
  const answer = await client.post('/applications/surveys/data/counts', { body: depositForm(name, line, publish) });
  expect(answer.status, answer.text).toBe(publish ? 202 : 201);
  if (publish) expect((await waitForJob(owner, 'surveys', answer.body.fileId)).job.status).toBe('done');
  return answer.body.fileId as string;
}

async function grant(login: string, operation: string) {
  const answer = await owner.post('/applications/surveys/authorization', {
    json: {
      name: `${operation} on alps in June`,
      description: 'partial reader of versions',
      usersId: [login],
      authorizationsWithRestriction: {
        counts: {
          operationTypes: [operation],
          requiredAuthorizations: { project: ['projectsKalps'] },
          timeScope: JUNE,
        },
      },
    },
  });
  expect(answer.status, answer.text).toBe(201);
}

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  owner = await signedIn(server, ROOT);
  const created = await owner.post('/applications/surveys', {
    body: csvForm('surveys.yaml', file('configurations/surveys.yaml')),
  });
  expect(created.text).toContain('"type":"result"');
  for (const reference of ['projects', 'sites', 'species']) {
    const name = `surveys-${reference}.csv`;
    const loaded = await owner.post(`/applications/surveys/references/${reference}`, {
      body: csvForm(name, file(`csv/${name}`)),
    });
    expect(loaded.status, loaded.text).toBe(201);
  }
  ids.Y = await deposit(owner, NAMES.Y, 'alps;lac_blanc;lagopus;20/05/2024;1', true);
  ids.Z = await deposit(owner, NAMES.Z, 'alps;lac_blanc;lagopus;21/06/2024;2', true);
  ids.B = await deposit(owner, NAMES.B, 'pyrenees;mont_joly;lagopus;05/06/2024;3', true);
  ids.U = await deposit(owner, NAMES.U, 'alps;lac_blanc;lagopus;03/08/2024;4', false);
  const [publisherAccount, readerAccount, strangerAccount] = await Promise.all([
    activeAccount(server, newIdentity('publisher')),
    activeAccount(server, newIdentity('reader')),
    activeAccount(server, newIdentity('stranger')),
  ]);
  await grant(publisherAccount.login, 'publication');
  await grant(readerAccount.login, 'extraction');
  publisher = await signedIn(server, publisherAccount);
  reader = await signedIn(server, readerAccount);
  stranger = await signedIn(server, strangerAccount);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** Every way of naming a version by its id, as `client` sends it: status and code of each answer. */
async function answersFor(client: ApiClient, fileId: string) {
  const answers = [
    await client.get(`/applications/surveys/file/${fileId}`),
    await client.get(`/applications/surveys/file/${fileId}/publication-state`),
    await client.post('/applications/surveys/data/counts', { json: { fileid: fileId, topublish: true } }),
    await client.post('/applications/surveys/data/counts', { json: { fileid: fileId, topublish: false } }),
    await client.delete(`/applications/surveys/file/${fileId}`),
  ];
  return answers.map((answer) => `${answer.status} ${answer.body?.code ?? ''}`);
}

describe('a version the caller may not open', () => {
  it.each([
    ['a stranger', () => stranger, ['Y', 'Z', 'B', 'U']],
    ['a reader of part of the data', () => reader, ['B', 'U']],
    ['a publisher of part of the data', () => publisher, ['B', 'U']],
  ])('answers %s as a version that does not exist, on every route', async (_who, client, hidden) => {
    const none = await answersFor(client(), NO_VERSION);
    for (const name of hidden as string[])
      expect({ name, got: await answersFor(client(), ids[name]) }).toEqual({ name, got: none });
    // Publishing and deleting may be refused before the version is looked for (no such right at all): alike too.
    expect(none.slice(0, 2)).toEqual(['404 NO_SUCH_FILE', '404 NO_SUCH_FILE']);
  });

  it('asks a visitor to sign in, whether the version exists or not', async () => {
    const visitor = api(server);
    for (const id of [NO_VERSION, ids.Y, ids.B]) {
      expect((await visitor.get(`/applications/surveys/file/${id}`)).status).toBe(401);
      expect((await visitor.get(`/applications/surveys/file/${id}/publication-state`)).status).toBe(401);
    }
  });

  it('still tells a reader of part of a published version that it is not theirs whole', async () => {
    const refused = await reader.get(`/applications/surveys/file/${ids.Y}`);
    expect([refused.status, refused.body.code]).toEqual([403, 'NO_RIGHT_FOR_WHOLE_VERSION']);
    expect((await reader.get(`/applications/surveys/file/${ids.Z}`)).status).toBe(200);
  });
});

describe('a publication refused for overlapping published versions', () => {
  let failed: { code: string; params: Record<string, unknown> };

  beforeAll(async () => {
    ids.X = await deposit(publisher, NAMES.X, 'alps;lac_blanc;lagopus;10/06/2024;5', false);
    const asked = await publisher.post('/applications/surveys/data/counts', {
      json: { fileid: ids.X, topublish: true },
    });
    expect(asked.status, asked.text).toBe(202);
    const state = await waitForJob(publisher, 'surveys', ids.X);
    expect(state.job.status).toBe('failed');
    failed = state.job.error;
  });

  it('names to its publisher only the versions they may open, and counts the others', async () => {
    expect(failed).toEqual({
      code: 'overlappingunreadablepublishedversion',
      params: { lineNumber: -1, fileOrUUID: ids.X, files: [NAMES.Z], named: 1, count: 1 },
    });
    const listed = await publisher.get('/applications/surveys/filesOnRepository/counts');
    const x = listed.body.find((version: { id: string }) => version.id === ids.X);
    expect(x.job.error).toEqual(failed);
    expect(listed.text).not.toContain(NAMES.Y);
  });

  it('names every one of them to whoever reads the data type whole', async () => {
    const state = await owner.get(`/applications/surveys/file/${ids.X}/publication-state`);
    expect(state.body.job.error.code).toBe('overlappingpublishedversion');
    expect([...state.body.job.error.params.files].sort()).toEqual([NAMES.Y, NAMES.Z]);
  });
});
