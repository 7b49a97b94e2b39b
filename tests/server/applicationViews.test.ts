import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outlineOf } from '../../src/domain/applications/outline.ts';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import { GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import {
  createApplication,
  fixture,
  grantApplicationRole,
  plainUser,
  resultEvents,
  streamEvents,
  uploadForm,
  type SignedInUser,
} from './applicationFixtures.ts';
import { ROOT } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * What an application tells each caller (issue 21): its whole configuration and its row counts only to those who
 * may read its data — administrators, user managers, readers of some rows (public authorizations included),
 * holders of an additional-file right — and its outline to everyone else, enough for the card, the home page and
 * a rights request. Counts are given for the entries the caller reads whole. On fieldbook.yaml: reference `sites`
 * (two rows), data type `counts` scoped by site (three rows), file types `protocols` and `photos`.
 */

const APP = '/applications/fieldbook';
const LIST_PARTS = '?filter=REFERENCETYPE&filter=DATATYPE&filter=ADDITIONALFILE&filter=RIGHTSREQUEST';

let server: TestServer;
let admin: ApiClient;
let model: ApplicationModel;
const ROLES = ['stranger', 'siteReader', 'partReader', 'userManager', 'fileHolder'] as const;
const people = {} as Record<(typeof ROLES)[number], SignedInUser>;

const home = async (client: ApiClient) => (await client.get(`${APP}?filter=ALL`)).body;
async function listed(client: ApiClient) {
  const answer = await client.get(`/applications${LIST_PARTS}`);
  expect(answer.status).toBe(200);
  return resultEvents(streamEvents(answer.text)).find((view) => view.name === 'fieldbook');
}

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  admin = await signedIn(server, ROOT);
  await createApplication(admin, 'fieldbook', { name: 'fieldbook.yaml', bytes: fixture('fieldbook.yaml') });
  expect(
    (
      await admin.post(`${APP}/references/sites`, {
        body: uploadForm(
          'sites.csv',
          new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '../fixtures/csv/fieldbook-sites.csv'))),
        ),
      })
    ).status,
  ).toBe(201);
  const counts = 'site;day;individuals\nlac_blanc;01/06/2024;3\nlac_blanc;02/06/2024;4\nmont_joly;01/06/2024;7\n';
  const loaded = await admin.post(`${APP}/data/counts`, {
    body: uploadForm('counts.csv', new TextEncoder().encode(counts)),
  });
  expect(loaded.status, loaded.text).toBe(201);
  model = (await home(admin)).configuration;

  for (const role of ROLES) people[role] = await plainUser(server, role.toLowerCase());
  await grantApplicationRole(admin, 'userManager', people.userManager.login, 'fieldbook');
  const grants = [
    { name: 'sites', usersId: [people.siteReader.login], authorizationForAll: { sites: ['extraction'] } },
    {
      name: 'lac blanc',
      usersId: [people.partReader.login],
      authorizationsWithRestriction: {
        counts: { operationTypes: ['extraction'], requiredAuthorizations: { site: ['sitesKlac_blanc'] } },
      },
    },
  ];
  for (const json of grants) expect((await admin.post(`${APP}/authorization`, { json })).status).toBe(201);
  const files = await admin.post(`${APP}/additionalFiles/authorization`, {
    json: {
      uuid: null,
      name: 'photographers',
      usersId: [people.fileHolder.login],
      additionalFiles: { depot: ['photos'] },
    },
  });
  expect(files.status, files.text).toBe(201);
}, 120_000);

afterAll(() => server?.close());

describe('someone who may not read the data', () => {
  it('gets the outline instead of the configuration, and no row count', async () => {
    const view = await home(people.stranger.client);
    expect(view.configuration).toBeUndefined();
    expect(view.outline).toEqual(outlineOf(model));
    expect(JSON.stringify(view.outline)).not.toContain('components');
    expect(view.lineCounts).toEqual({});
    // What the card and the home page need stays.
    expect(view).toMatchObject({
      name: 'fieldbook',
      references: ['sites'],
      dataTypes: ['counts'],
      additionalFiles: ['protocols', 'photos'],
      canReadReference: false,
      canReadDatatype: false,
    });
  });

  it('sees no row count in the list either', async () => {
    expect((await listed(people.stranger.client)).lineCounts).toEqual({});
    expect((await listed(admin)).lineCounts).toEqual({ sites: 2, counts: 3 });
  });
});

describe('those who may read the data', () => {
  it('get the whole configuration: readers of some rows, user managers, holders of a file right, administrators', async () => {
    for (const client of [
      people.siteReader.client,
      people.partReader.client,
      people.userManager.client,
      people.fileHolder.client,
      admin,
    ]) {
      const view = await home(client);
      expect(view.configuration).toEqual(model);
      expect(view.outline).toBeUndefined();
    }
  });

  it('get the counts of the entries they read whole, and only those', async () => {
    expect((await home(people.siteReader.client)).lineCounts).toEqual({ sites: 2 });
    expect((await listed(people.siteReader.client)).lineCounts).toEqual({ sites: 2 });
    // Reading Lac Blanc only: the total of counts would tell about Mont Joly.
    expect((await home(people.partReader.client)).lineCounts).toEqual({});
    expect((await home(people.userManager.client)).lineCounts).toEqual({});
    expect((await home(admin)).lineCounts).toEqual({ sites: 2, counts: 3 });
  });

  it('include everyone once an authorization makes the sites public', async () => {
    const json = { name: 'open sites', usersId: ['_public_'], authorizationForAll: { sites: ['extraction'] } };
    const opened = await admin.post(`${APP}/authorization`, { json });
    expect(opened.status, opened.text).toBe(201);
    const view = await home(people.stranger.client);
    expect(view.configuration).toEqual(model);
    expect(view.lineCounts).toEqual({ sites: 2 });
    expect((await admin.delete(`${APP}/authorization/${opened.body.authorizationId}`)).status).toBe(200);
    expect((await home(people.stranger.client)).configuration).toBeUndefined();
  });
});

describe('write versions of the entries', () => {
  const versionsOf = async (client: ApiClient) => (await home(client)).entryVersions as Record<string, number>;

  it('are given for every entry the caller reads rows of, in part too, and move with each write', async () => {
    expect(Object.keys(await versionsOf(people.partReader.client))).toContain('counts');
    const before = await versionsOf(admin);
    expect(Object.keys(before).sort()).toEqual(['counts', 'sites']);
    expect((await listed(admin)).entryVersions).toEqual(before);

    const rowsAnswer = await admin.get(`${APP}/references/sites/rows`);
    expect(rowsAnswer.headers.get('x-entry-version')).toBe(String(before.sites));

    const sites = readFileSync(path.resolve(import.meta.dirname, '../fixtures/csv/fieldbook-sites.csv'), 'utf8');
    const changed = sites.replace(/\n?$/, '\n').replace(/Lac Blanc/, 'Lac Blanc (rive nord)');
    expect(changed).not.toBe(sites);
    const loaded = await admin.post(`${APP}/references/sites`, {
      body: uploadForm('sites.csv', new TextEncoder().encode(changed)),
    });
    expect(loaded.status, loaded.text).toBe(201);
    const after = await versionsOf(admin);
    expect(after.sites).toBeGreaterThan(before.sites);
    expect(after.counts).toBe(before.counts);
    expect((await admin.get(`${APP}/references/sites/rows`)).headers.get('x-entry-version')).toBe(String(after.sites));
  });
});
