/**
 * A reference may have an authorization scope of its own (`OA_authorizations` on a reference): a reader restricted
 * to part of it reads those rows only, in every way the API gives rows — the consultation, the exports and the
 * NDJSON copy the browser keeps for offline use (with its count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import { createApplication, readCsv, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
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

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'regions', YAML);
  expect((await uploadReference(data.admin, 'regions', 'regions', 'regions.csv', 'code\nnorth\nsouth\n')).status).toBe(
    201,
  );
  const sites = await uploadReference(
    data.admin,
    'regions',
    'sites',
    'sites.csv',
    'code;region;note\nn1;north;a\nn2;north;b\ns1;south;not for the north\n',
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

describe('a reader restricted to part of a scoped reference', () => {
  it('consults and exports their rows only', async () => {
    const page = await reader.get('/applications/regions/references/sites');
    expect(page.body.referenceValues.map((row: { naturalKey: string }) => row.naturalKey)).toEqual(['n1', 'n2']);
    const csv = await reader.get('/applications/regions/references/sites/csv');
    expect(
      readCsv(csv.text, ';')
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(['n1', 'n2']);
  });

  it('gets only their rows, and their count, in the copy kept for offline use', async () => {
    const rows = await reader.get('/applications/regions/references/sites/rows');
    expect(rows.status).toBe(200);
    const lines = rows.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { naturalKey: string });
    expect(lines.map((row) => row.naturalKey)).toEqual(['n1', 'n2']);
    expect(rows.text).not.toContain('not for the north');
    expect(rows.headers.get('x-total-count')).toBe('2');
    const whole = await data.admin.get('/applications/regions/references/sites/rows');
    expect(whole.headers.get('x-total-count')).toBe('3');
  });
});
