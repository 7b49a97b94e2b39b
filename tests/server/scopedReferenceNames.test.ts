import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { MAX_FIELD_CHOICES } from '../../src/domain/forms/fieldChoices.ts';
import { validatorOfCheck } from '../../src/domain/csv/index.ts';
import {
  createApplication,
  csvForm,
  modelOf,
  startDataServer,
  storedRows,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';

/**
 * A reference dividing its own rows by rights (`sites`, by region) is named to a user only as far as they may read
 * it (audit of partial readers): the rows a refused CSV line shows as examples, the choices of a form's reference
 * field, the rows a form's value may designate and those its refusal shows. Other references are named whole, as
 * before. Above every cap: more sites than a form offers (1,000) in each of two regions, the sample of a refusal
 * (10 rows) drawn from them; the east has a few, which its reader is offered as choices.
 */

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: regions
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Régions, en: Regions}
OA_rightsRequest:
  OA_formFields:
    site:
      OA_required: true
      OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
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
    OA_authorizations:
      OA_authorizationScope: [region]
  visits:
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      region:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: regions}}}
      day: null
`;

const LARGE = MAX_FIELD_CHOICES + 500;
const code = (region: string, i: number) => `${region}${String(i).padStart(5, '0')}`;
const sitesOf = (region: string, count: number) => Array.from({ length: count }, (_, i) => code(region, i));
const NORTH = sitesOf('north', LARGE);
const SOUTH = sitesOf('south', LARGE);
const EAST = sitesOf('east', 6);

let data: DataServer;
let eastReader: ApiClient;
let stranger: ApiClient;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'regions', YAML);
  const regions = await uploadReference(data.admin, 'regions', 'regions', 'regions.csv', 'code\neast\nnorth\nsouth\n');
  expect(regions.status, regions.text).toBe(201);
  // The east's sites sort first, then the north's: a sample of the first rows of the whole reference names them.
  const lines = [
    ...EAST.map((site) => `${site};east`),
    ...NORTH.map((site) => `${site};north`),
    ...SOUTH.map((site) => `${site};south`),
  ];
  const sites = await uploadReference(
    data.admin,
    'regions',
    'sites',
    'sites.csv',
    `code;region\n${lines.join('\n')}\n`,
  );
  expect(sites.status, sites.text).toBe(201);
  const [reader, nobody] = await Promise.all([
    activeAccount(data.server, newIdentity('eastreader')),
    activeAccount(data.server, newIdentity('nobody')),
  ]);
  const granted = await data.admin.post('/applications/regions/authorization', {
    json: {
      name: 'the east',
      description: 'part of a scoped reference',
      usersId: [reader.login],
      authorizationForAll: { regions: ['extraction'], visits: ['depot'] },
      authorizationsWithRestriction: {
        sites: { operationTypes: ['extraction'], requiredAuthorizations: { region: ['regionsKeast'] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  eastReader = await signedIn(data.server, reader);
  stranger = await signedIn(data.server, nobody);
}, 120_000);
afterAll(() => data?.server.close());

const request = (site: string) => ({
  json: {
    id: null,
    fields: { site },
    rightsRequest: { authorizationForAll: { regions: ['extraction'] } },
    comment: 'a site',
  },
});

describe('a reader of part of a reference that scopes its own rights', () => {
  it('is shown, for a value of no row in a CSV file, rows they may read only', async () => {
    const refused = await eastReader.post('/applications/regions/data/visits', {
      body: csvForm('visits.csv', `site;region;day\nnowhere;east;2024-06-01\n${NORTH[3]};north;2024-06-02\n`),
    });
    expect(refused.status, refused.text).toBe(400);
    const errors = refused.body.errors as Array<{ lineNumber: number; code: string; params: Record<string, unknown> }>;
    // A value naming a row they may not read is still a known value: the file is checked against the whole reference.
    expect(errors.map((error) => [error.lineNumber, error.code])).toEqual([[2, 'invalidReferenceWithComponent']]);
    expect(errors[0].params).toMatchObject({ value: 'nowhere', refType: 'sites', referenceValues: EAST });
    // The regions divide no rows by rights: named whole, as before.
    const region = await eastReader.post('/applications/regions/data/visits', {
      body: csvForm('visits.csv', `site;region;day\n${EAST[0]};west;2024-06-01\n`),
    });
    expect(region.body.errors[0].params.referenceValues).toEqual(['east', 'north', 'south']);
  });

  it('gets a copy marked as a part, which a device checks a file against as the server does', async () => {
    const part = await eastReader.get('/applications/regions/references/sites/rows');
    expect([part.status, part.headers.get('x-rows-part'), part.headers.get('x-total-count')]).toEqual([
      200,
      'true',
      '6',
    ]);
    const whole = await data.admin.get('/applications/regions/references/sites/rows');
    expect([whole.headers.get('x-rows-part'), whole.headers.get('x-total-count')]).toEqual([
      'false',
      String(2 * LARGE + 6),
    ]);
    expect((await eastReader.get('/applications/regions/references/regions/rows')).headers.get('x-rows-part')).toBe(
      'false',
    );

    // The device holds the east's sites; a visit to a site of the north is not an error there, as on the server.
    const visits = `site;region;day\n${EAST[0]};east;2024-06-01\n${NORTH[3]};north;2024-06-02\n`;
    const validator = validatorOfCheck(
      {
        model: await modelOf(eastReader, 'regions'),
        dataName: 'visits',
        fileName: 'visits.csv',
        references: {
          sites: await storedRows(eastReader, 'regions', 'sites'),
          regions: await storedRows(eastReader, 'regions', 'regions'),
        },
        device: { withoutCopy: [], partCopies: ['sites'], queuedRows: {} },
      },
      { collectRows: false },
    );
    validator.push(visits);
    const report = validator.finish();
    expect(report.errorCount).toBe(0);
    expect(report.notes?.map((note) => [note.code, note.value, note.lineNumber])).toEqual([
      ['referenceOutsideReadPart', NORTH[3], 3],
    ]);
    const sent = await eastReader.post('/applications/regions/data/visits', { body: csvForm('visits.csv', visits) });
    expect(sent.status, sent.text).toBe(201);
  });

  it('is offered as choices the rows they may read only, however large the reference', async () => {
    const options = await eastReader.get('/applications/regions/rightsRequest/options');
    expect(options.status, options.text).toBe(200);
    expect(options.body.fieldChoices.site.map((choice: { naturalKey: string }) => choice.naturalKey)).toEqual(EAST);
    const none = await stranger.get('/applications/regions/rightsRequest/options');
    expect(none.body.fieldChoices.site ?? []).toEqual([]);
    // Whoever reads it whole is offered no list beyond the cap: the field takes a code.
    expect(
      (await data.admin.get('/applications/regions/rightsRequest/options')).body.fieldChoices.site,
    ).toBeUndefined();
  });

  it('may name in a form only rows they may read; a refusal shows theirs as examples', async () => {
    for (const [client, site, shown] of [
      [eastReader, NORTH[7], EAST],
      [eastReader, 'nowhere', EAST],
      [stranger, SOUTH[0], []],
    ] as const) {
      const refused = await client.post('/applications/regions/rightsRequest', request(site));
      expect([refused.status, refused.body.code], refused.text).toEqual([400, 'INVALID_RIGHTS_REQUEST_FIELD']);
      expect(refused.body.params.problemParams).toMatchObject({ value: site, referenceValues: shown });
    }
    expect((await eastReader.post('/applications/regions/rightsRequest', request(EAST[2]))).status).toBe(201);
    // The manager reads every site: any of them is a known value.
    expect((await data.admin.post('/applications/regions/rightsRequest', request(SOUTH[9]))).status).toBe(201);
  });
});
