/**
 * A reference may have an authorization scope of its own (`OA_authorizations` on a reference): a reader restricted
 * to part of it reads those rows only, in every way the API gives rows — the consultation, the exports (under
 * `references/` and under `data/`, as the newest OpenADOM's scripts read them) and the NDJSON copy the browser keeps
 * for offline use (with its count). The part read is larger than an export's page, so every page is filtered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import { EXPORT_PAGE } from '../../server/services/rowQueries.ts';
import {
  createApplication,
  readCsv,
  startDataServer,
  unzipText,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';
import type { HttpClient } from './httpClient.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: regions
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Régions, en: Regions}
OA_data:
  regions:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      region:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: regions}}}
      note: null
    OA_authorizations:
      OA_authorizationScope: [region]
`;

let data: DataServer;
let reader: HttpClient;

/** Sites alternate between the regions, so the north's share is more than one export page. */
const SITES = 2 * EXPORT_PAGE + 2_000;
const siteCode = (i: number) => `site${String(i).padStart(5, '0')}`;
const inNorth = (i: number) => i % 2 === 0;
const NORTH = Array.from({ length: SITES }, (_, i) => i)
  .filter(inNorth)
  .map(siteCode);

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'regions', YAML);
  expect((await uploadReference(data.admin, 'regions', 'regions', 'regions.csv', 'code\nnorth\nsouth\n')).status).toBe(
    201,
  );
  const lines = Array.from(
    { length: SITES },
    (_, i) => `${siteCode(i)};${inNorth(i) ? 'north' : 'south'};${inNorth(i) ? 'a' : 'not for the north'}`,
  );
  const sites = await uploadReference(
    data.admin,
    'regions',
    'sites',
    'sites.csv',
    `code;region;note\n${lines.join('\n')}\n`,
  );
  expect(sites.status, sites.text).toBe(201);
  const account = await activeAccount(data.server);
  const granted = await data.admin.post('/applications/regions/authorization', {
    json: {
      name: 'north only',
      usersId: [account.login],
      authorizationForAll: { regions: ['extraction'] },
      authorizationsWithRestriction: {
        sites: { operationTypes: ['extraction'], requiredAuthorizations: { region: ['regionsKnorth'] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  reader = await signedIn(data.server, account);
}, 120_000);
afterAll(() => data?.server.close());

const codesOfCsv = (text: string) =>
  readCsv(text, ';')
    .slice(1)
    .map((row) => row[0]);

describe('a reader restricted to part of a scoped reference', () => {
  it('consults their rows only, page by page', async () => {
    const query = (offset: number) =>
      `?downloadDatasetQuery=${encodeURIComponent(JSON.stringify({ offset, limit: 1_000 }))}`;
    const first = await reader.get(`/applications/regions/references/sites${query(0)}`);
    expect(first.body.totalRows).toBe(NORTH.length);
    expect(first.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).toEqual(
      NORTH.slice(0, 1_000),
    );
    const last = await reader.get(`/applications/regions/data/sites/json${query(NORTH.length - 10)}`);
    expect(last.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).toEqual(NORTH.slice(-10));
    // The region as the original's answers give it; its path kept apart.
    expect(last.body.referenceValues[0].values.region).toBe('north');
    expect(last.body.referenceValues[0].referenceKeys).toEqual({ region: 'regionsKnorth' });
  });

  it.each(['references', 'data'])(
    'exports their rows only under %s/: JSON, CSV and zip, every one of them',
    async (base) => {
      const json = await reader.get(`/applications/regions/${base}/sites/json`);
      expect(json.status).toBe(200);
      expect(json.body.totalRows).toBe(NORTH.length);
      expect(json.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).toEqual(NORTH);
      expect(json.text).not.toContain('not for the north');
      const csv = await reader.get(`/applications/regions/${base}/sites/csv`);
      expect(csv.status).toBe(200);
      expect(codesOfCsv(csv.text)).toEqual(NORTH);
      const zip = await fetch(`${data.server.url}/api/v1/applications/regions/${base}/sites/zip`, {
        headers: { cookie: reader.cookieHeader },
      });
      expect(zip.status).toBe(200);
      const files = unzipText(new Uint8Array(await zip.arrayBuffer()));
      const sitesCsv = Object.entries(files).find(([name]) => name.endsWith('sites.csv'));
      expect(sitesCsv, Object.keys(files).join(', ')).toBeDefined();
      expect(codesOfCsv(sitesCsv![1])).toEqual(NORTH);
      expect(Object.values(files).join('')).not.toContain('not for the north');
      const whole = await data.admin.get(`/applications/regions/${base}/sites/json`);
      expect(whole.body.totalRows).toBe(SITES);
    },
  );

  it('gets only their rows, and their count, in the copy kept for offline use', async () => {
    const rows = await reader.get('/applications/regions/references/sites/rows');
    expect(rows.status).toBe(200);
    const lines = rows.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { naturalKey: string });
    expect(lines.map((row) => row.naturalKey)).toEqual(NORTH);
    expect(rows.text).not.toContain('not for the north');
    expect(rows.headers.get('x-total-count')).toBe(String(NORTH.length));
    const whole = await data.admin.get('/applications/regions/references/sites/rows');
    expect(whole.headers.get('x-total-count')).toBe(String(SITES));
  });

  it('may not load a file into the reference, under either path', async () => {
    for (const base of ['references', 'data']) {
      const form = new FormData();
      form.append('file', new Blob(['code;region;note\nsite99999;north;x\n']), 'sites.csv');
      const refused = await reader.post(`/applications/regions/${base}/sites`, { body: form });
      expect(refused.status, `${base}: ${refused.text}`).toBe(403);
    }
    expect((await data.admin.get('/applications/regions/references/sites/json')).body.totalRows).toBe(SITES);
  });
});
