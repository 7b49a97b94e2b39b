/**
 * The export to load again at real size (review S1, S8): a data type loaded from three files of different constants
 * (three shapes), two of them of more than 5,000 rows (the export page) interleaved in natural-key order, the third
 * only in a place a partial reader may not read. Each file of the zip holds its shape's rows once, each row is read
 * once, and the partial reader gets only their rows, in only their shapes. Above the bound on shapes, both forms
 * are refused with a code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { createApplication, csvForm, q, ROOT, uploadReference, unzipText } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { statementsOf } from './statementsRead.ts';
import { MASSIFS_PLACES_CSV } from './massifsFixtures.ts';
import { MAX_UPLOAD_SHAPES } from '../../server/services/entryExports.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: campaigns
  OA_version: 1.0.0
  OA_i18n:
    OA_title: {fr: Campagnes, en: Campaigns}
OA_data:
  places:
    OA_i18n:
      OA_title: {fr: Lieux, en: Places}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      within:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places, OA_isParent: true}}}
  sightings:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Observations, en: Sightings}
    OA_dataHeaderLine: 2
    OA_dataFirstLine: 3
    OA_naturalKey: [place, day]
    OA_basicComponents:
      place:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      birds:
        OA_checker: {OA_name: OA_integer}
    OA_constantComponents:
      campaign:
        OA_importHeaderTarget: {OA_rowNumber: 1, OA_columnNumber: 2}
    OA_authorizations:
      OA_authorizationScope: [place]
`;

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (index: number) => {
  const day = new Date(Date.UTC(2020, 0, 1) + index * DAY);
  return `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`;
};
/** Places of the two large shapes: the Mont Blanc sub-tree (granted to the reader) and one place outside it. */
const PLACES = ['mont_blanc', 'aiguilles', 'mont_blanc_sud'];
const DAYS = 3_600;
/** Days alternate between the spring and summer files: their rows interleave in natural-key order. */
const line = (place: string, day: number) => `${place};${dayText(day)};${day % 17}`;
const SPRING = PLACES.flatMap((place) => Array.from({ length: DAYS / 2 }, (_, i) => line(place, 2 * i)));
const SUMMER = PLACES.flatMap((place) => Array.from({ length: DAYS / 2 }, (_, i) => line(place, 2 * i + 1)));
/** A third shape, only in the Vanoise: outside the reader's grant. */
const WINTER = Array.from({ length: 30 }, (_, i) => line('vanoise', i));
const file = (campaign: string, lines: string[]) => `campaign;${campaign}\nplace;day;birds\n${lines.join('\n')}\n`;
const GRANTED = new Set(['mont_blanc', 'aiguilles']);

let server: TestServer;
let owner: ApiClient;
let reader: ApiClient;
const sightings = '/applications/campaigns/data/sightings';
const db = () => server.server.ctx.db;

beforeAll(async () => {
  server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  owner = await signedIn(server, ROOT);
  await createApplication(owner, 'campaigns', YAML);
  expect((await uploadReference(owner, 'campaigns', 'places', 'places.csv', MASSIFS_PLACES_CSV)).status).toBe(201);
  for (const [name, lines] of [
    ['spring', SPRING],
    ['summer', SUMMER],
    ['winter', WINTER],
  ] as const) {
    const loaded = await owner.post(sightings, { body: csvForm(`${name}.csv`, file(name, lines)) });
    expect(loaded.status, loaded.text).toBe(201);
  }
  const places = await owner.get(`/applications/campaigns/references/places${q({ limit: 100 })}`);
  const keyOf = (code: string) =>
    places.body.referenceValues.find((row: { naturalKey: string }) => row.naturalKey === code).hierarchicalKey;
  const account = await activeAccount(server, newIdentity('shapereader'));
  const granted = await owner.post('/applications/campaigns/authorization', {
    json: {
      name: 'Mont Blanc',
      description: 'partial reader of several shapes',
      usersId: [account.login],
      authorizationsWithRestriction: {
        sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: [keyOf('mont_blanc')] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  reader = await signedIn(server, account);
}, 300_000);

afterAll(async () => {
  await server?.close();
});

/** The zip's data files: campaign → the data lines, each checked to be under its own campaign's header. */
async function zipOf(client: ApiClient) {
  const answer = await fetch(`${server.url}/api/v1${sightings}/zip?form=upload`, {
    headers: { cookie: client.cookieHeader },
  });
  expect(answer.status).toBe(200);
  const files = unzipText(new Uint8Array(await answer.arrayBuffer()));
  const byCampaign = new Map<string, string[]>();
  for (const [name, text] of Object.entries(files)) {
    if (name.startsWith('references/')) continue;
    const [first, header, ...lines] = text.trimEnd().split('\n');
    expect(header, name).toBe('"place";"day";"birds"');
    const campaign = /^"[^"]*";"([^"]*)"/.exec(first)?.[1] ?? '';
    byCampaign.set(
      campaign,
      lines.map((text) => text.replace(/"/g, '')),
    );
  }
  return byCampaign;
}

describe('the export to load again of several shapes across export pages', () => {
  it('writes each shape in its own file, every row once, reading each row once', async () => {
    const [zip, , rowsRead] = await statementsOf(db(), () => zipOf(owner));
    expect([...zip.keys()].sort()).toEqual(['spring', 'summer', 'winter']);
    expect(zip.get('spring')!.length).toBeGreaterThan(5_000);
    expect(new Set(zip.get('spring'))).toEqual(new Set(SPRING));
    expect(zip.get('spring')!.length).toBe(SPRING.length);
    expect(new Set(zip.get('summer'))).toEqual(new Set(SUMMER));
    expect(zip.get('summer')!.length).toBe(SUMMER.length);
    expect(new Set(zip.get('winter'))).toEqual(new Set(WINTER));
    // Each row once (every statement counted), the shapes listed by the database: not (shapes + 1) reads of each.
    const total = SPRING.length + SUMMER.length + WINTER.length;
    expect(rowsRead).toBeGreaterThanOrEqual(total);
    expect(rowsRead).toBeLessThan(total + 500);
  }, 120_000);

  it("gives a partial reader only their rows, in only their rows' shapes", async () => {
    const zip = await zipOf(reader);
    // The Vanoise's campaign is not even named.
    expect([...zip.keys()].sort()).toEqual(['spring', 'summer']);
    const granted = (lines: string[]) => lines.filter((text) => GRANTED.has(text.split(';')[0]));
    expect(new Set(zip.get('spring'))).toEqual(new Set(granted(SPRING)));
    expect(zip.get('spring')!.length).toBe(granted(SPRING).length);
    expect(new Set(zip.get('summer'))).toEqual(new Set(granted(SUMMER)));
    expect(zip.get('summer')!.length).toBe(granted(SUMMER).length);
    // A row they may not read does not count as a shape: the CSV of one granted row is enough.
    const one = await reader.get(
      `${sightings}/csv${q({ naturalKeys: ['aiguilles__01_01_2020', 'vanoise__01_01_2020'] })}&form=upload`,
    );
    expect(one.status, one.text.slice(0, 300)).toBe(200);
    expect(one.text.trimEnd().split('\n').slice(1)).toEqual(['"place";"day";"birds"', '"aiguilles";"01/01/2020";"0"']);
    const refused = await reader.get(`${sightings}/csv?form=upload`);
    expect([refused.status, refused.body.code, refused.body.params]).toEqual([
      409,
      'UPLOAD_FORM_SEVERAL_FILES',
      { files: 2 },
    ]);
  }, 120_000);

  it(`refuses more than ${MAX_UPLOAD_SHAPES} shapes with a code, in both forms`, async () => {
    const many = Array.from({ length: MAX_UPLOAD_SHAPES + 1 }, (_, i) => `c${i}`);
    for (const [i, campaign] of many.entries()) {
      const loaded = await owner.post(sightings, {
        body: csvForm(`${campaign}.csv`, file(campaign, [line('alps', i)])),
      });
      expect(loaded.status, loaded.text).toBe(201);
    }
    for (const form of ['zip', 'csv']) {
      const refused = await owner.get(`${sightings}/${form}?form=upload`);
      expect([refused.status, refused.body.code, refused.body.params], form).toEqual([
        409,
        'UPLOAD_FORM_TOO_MANY_SHAPES',
        { max: MAX_UPLOAD_SHAPES },
      ]);
    }
    // The partial reader sees none of these rows: their export is as before.
    expect([...(await zipOf(reader)).keys()].sort()).toEqual(['spring', 'summer']);
  }, 300_000);
});
