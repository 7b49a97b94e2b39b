/**
 * A reference upload moving rows under another parent changes their hierarchical keys, which the rows pointing to
 * them keep (their references, the scopes rights are matched on): such a file is refused whole while anything
 * points to a moved row (409 MOVED_REFERENCED_ROWS), and accepted as before when nothing does. On the massifs
 * fixture (places within places), then at size.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import { createApplication, q, ROOT, tableState, uploadReference, waitForJob } from './dataFixtures.ts';
import { startTestServer } from './harness.ts';
import { MASSIFS_PLACES_CSV, startMassifsServer, type MassifsServer } from './massifsFixtures.ts';
import { rowsScanned, statementsOf } from './statementsRead.ts';

/** The places' stored keys of each sighting, by natural key, a page of a thousand at a time. */
async function sightingPlaces(massifs: MassifsServer): Promise<Record<string, string>> {
  const places: Record<string, string> = {};
  for (let offset = 0; ; offset += 1000) {
    const page = await massifs.owner.get(`/applications/massifs/data/sightings/json${q({ offset, limit: 1000 })}`);
    expect(page.status, page.text).toBe(200);
    const rows = page.body.rows as Array<{ naturalKey: string; referenceKeys: { place: string } }>;
    for (const row of rows) places[row.naturalKey] = row.referenceKeys.place;
    if (rows.length < 1000) return places;
  }
}

/** The stored hierarchical key of a place, as stored now. */
async function placeKey(massifs: MassifsServer, code: string): Promise<string | undefined> {
  const places = await tableState(massifs.owner, 'massifs', 'places');
  return places.rows.find((row) => row.naturalKey === code)?.hierarchicalKey;
}

const uploadPlaces = (massifs: MassifsServer, csv: string) =>
  uploadReference(massifs.owner, 'massifs', 'places', 'places.csv', csv);

describe('moving reference rows that other rows point to', () => {
  let massifs: MassifsServer;
  beforeAll(async () => {
    massifs = await startMassifsServer(['aiguilles;05/06/2024;1']);
  });
  afterAll(() => massifs?.server.close());

  /** Uploads `csv`, expects it refused for moving rows pointed to, and the places and sightings as they were. */
  async function refusedMove(csv: string) {
    const places = await tableState(massifs.owner, 'massifs', 'places');
    const sightings = await sightingPlaces(massifs);
    const refused = await uploadPlaces(massifs, csv);
    expect([refused.status, refused.body.code], refused.text).toEqual([409, 'MOVED_REFERENCED_ROWS']);
    expect(await tableState(massifs.owner, 'massifs', 'places')).toEqual(places);
    expect(await sightingPlaces(massifs)).toEqual(sightings);
    return refused.body.params as { rows: string; referring: unknown[]; versions: unknown[] };
  }

  it('refuses a file moving a row data point to, naming it and the data', async () => {
    const params = await refusedMove(MASSIFS_PLACES_CSV.replace('aiguilles;mont_blanc', 'aiguilles;vanoise'));
    expect(params).toEqual({
      rows: 'aiguilles',
      more: 'no',
      referring: [{ dataName: 'sightings', naturalKey: 'aiguilles__05_06_2024' }],
      referringMore: false,
      versions: [],
    });
    expect(await sightingPlaces(massifs)).toEqual({
      aiguilles__05_06_2024: 'placesKalps.placesKmont_blanc.placesKaiguilles',
    });
    expect(await placeKey(massifs, 'aiguilles')).toBe('placesKalps.placesKmont_blanc.placesKaiguilles');
  });

  it('refuses a file moving the parent of a row data point to', async () => {
    const params = await refusedMove(MASSIFS_PLACES_CSV.replace('mont_blanc;alps', 'mont_blanc;vanoise'));
    expect(params.rows).toBe('aiguilles');
    expect(params.referring).toEqual([{ dataName: 'sightings', naturalKey: 'aiguilles__05_06_2024' }]);
  });

  it('refuses a file moving a parent without its children: they would keep its former key', async () => {
    const params = await refusedMove('code;within\nmont_blanc;vanoise\n');
    expect(params.rows).toBe('mont_blanc');
    expect(params.referring).toEqual([{ dataName: 'places', naturalKey: 'aiguilles' }]);
  });

  it('refuses alike a loader who reads no sightings, without their keys', async () => {
    const account = await activeAccount(massifs.server);
    const granted = await massifs.owner.post('/applications/massifs/authorization', {
      json: { name: 'places keeper', usersId: [account.login], authorizationForAll: { places: ['depot'] } },
    });
    expect(granted.status, granted.text).toBe(201);
    const keeper = await signedIn(massifs.server, account);
    const csv = MASSIFS_PLACES_CSV.replace('aiguilles;mont_blanc', 'aiguilles;vanoise');
    const refused = await uploadReference(keeper, 'massifs', 'places', 'places.csv', csv);
    expect([refused.status, refused.body.code, refused.body.params], refused.text).toEqual([
      409,
      'MOVED_REFERENCED_ROWS',
      { rows: 'aiguilles', more: 'no', referring: [], referringMore: false, versions: [] },
    ]);
  });

  it('accepts a file moving rows nothing points to, as before', async () => {
    const moved = await uploadPlaces(
      massifs,
      MASSIFS_PLACES_CSV.replace('mont_blanc_sud;alps', 'mont_blanc_sud;vanoise'),
    );
    expect(moved.status, moved.text).toBe(201);
    expect(await placeKey(massifs, 'mont_blanc_sud')).toBe('placesKalps.placesKvanoise.placesKmont_blanc_sud');
    // The same file again changes nothing and is accepted.
    const again = await uploadPlaces(
      massifs,
      MASSIFS_PLACES_CSV.replace('mont_blanc_sud;alps', 'mont_blanc_sud;vanoise'),
    );
    expect(again.status, again.text).toBe(201);
  });
});

/** Massifs under the Alps, each with its places; sightings on the places of the first `pointed` massifs. */
const MASSIF_COUNT = 30;
const PLACES_PER_MASSIF = 100;
const POINTED_MASSIFS = 20;
/** Lines of a places file: the Alps, the massifs and their places. */
const LINES = 1 + MASSIF_COUNT * (1 + PLACES_PER_MASSIF);

function placesCsv(moves: Record<string, string> = {}): string {
  const lines = ['code;within', 'alps;'];
  for (let m = 0; m < MASSIF_COUNT; m += 1) {
    lines.push(`m${m};${moves[`m${m}`] ?? 'alps'}`);
    for (let p = 0; p < PLACES_PER_MASSIF; p += 1) lines.push(`m${m}p${p};m${m}`);
  }
  return `${lines.join('\n')}\n`;
}

function sightingLines(): string[] {
  const lines: string[] = [];
  for (let m = 0; m < POINTED_MASSIFS; m += 1)
    for (let p = 0; p < PLACES_PER_MASSIF; p += 1) lines.push(`m${m}p${p};01/06/2024;${p}`);
  return lines;
}

describe('at size: a reference of thousands of rows, thousands of rows pointing to it', () => {
  let massifs: MassifsServer;
  const db = () => massifs.server.server.ctx.db;
  const NOTING = 'stored.hierarchical_key <> u.hk';
  const POINTING = 'refs @> array';

  beforeAll(async () => {
    massifs = await startMassifsServer(sightingLines(), placesCsv());
  }, 120_000);
  afterAll(() => massifs?.server.close());

  /**
   * Uploads `csv` and answers what it cost: its statements, the rows the database read to note the moved rows (by
   * natural key, for each line of the file) and to find the rows pointing to them.
   */
  async function measuredUpload(csv: string) {
    const [[[answer, statements], pointing], noted] = await rowsScanned(
      db(),
      () => rowsScanned(db(), () => statementsOf(db(), () => uploadPlaces(massifs, csv)), POINTING),
      NOTING,
    );
    console.info(`${statements} statements, ${noted} rows read noting moved rows, ${pointing} finding pointers`);
    return { answer, statements, noted, pointing };
  }

  it('refuses moving a massif whose places are pointed to, reading a row per line and a few pointing', async () => {
    const refused = await measuredUpload(placesCsv({ m3: 'm4' }));
    expect([refused.answer.status, refused.answer.body.code]).toEqual([409, 'MOVED_REFERENCED_ROWS']);
    // Fifty listed and five moved places named, each list saying it goes on.
    expect(refused.answer.body.params).toMatchObject({ more: 'yes', referringMore: true });
    expect(refused.answer.body.params.referring).toHaveLength(50);
    expect(refused.answer.body.params.rows.split(', ')).toHaveLength(5);
    expect(refused.noted).toBeLessThanOrEqual(LINES);
    // The 50 rows listed, give or take the one a look-up reads ahead.
    expect(refused.pointing).toBeLessThanOrEqual(60);
    expect((await sightingPlaces(massifs))['m3p7__01_06_2024']).toBe('placesKalps.placesKm3.placesKm3p7');
  });

  it('accepts moving a massif nothing points to, and a file moving nothing, with a statement per batch more', async () => {
    const moved = await measuredUpload(placesCsv({ m25: 'm26' }));
    expect(moved.answer.status, moved.answer.text).toBe(201);
    expect(moved.noted).toBeLessThanOrEqual(LINES);
    // Its 101 moved rows are looked for one by one in the index of references, none found.
    expect(moved.pointing).toBe(0);
    expect(await placeKey(massifs, 'm25p1')).toBe('placesKalps.placesKm26.placesKm25.placesKm25p1');

    const same = await measuredUpload(placesCsv({ m25: 'm26' }));
    expect(same.answer.status, same.answer.text).toBe(201);
    expect([same.noted, same.pointing]).toEqual([LINES, 0]);
    // Noting moved rows adds a statement per batch of the file, never one per line.
    expect(same.statements).toBeLessThan(LINES / 10);
  });

  /** Deletes places and answers what finding the rows pointing to them read. */
  async function measuredDeletion(codes: string[]) {
    const [answer, scanned] = await rowsScanned(
      db(),
      () =>
        massifs.owner.delete(
          `/applications/massifs/references/places?${codes.map((c) => `naturalKey=${c}`).join('&')}`,
        ),
      `refs <> '{}'`,
    );
    console.info(`deleting ${codes.length} places read ${scanned} rows finding pointers`);
    return { answer, scanned };
  }

  it('deletes as it finds pointing rows: reading the rows it lists, or those it deletes', async () => {
    const refused = await measuredDeletion(['m5p1']);
    expect([refused.answer.status, refused.answer.body.code, refused.answer.body.params?.referring]).toEqual([
      409,
      'REFERENCED_ROWS',
      [{ dataName: 'sightings', naturalKey: 'm5p1__01_06_2024' }],
    ]);
    expect(refused.answer.body.params.referringMore).toBe(false);
    expect(refused.scanned).toBeLessThanOrEqual(2);

    // A massif its hundred places point to: the look-up stops at the rows it lists.
    const pointed = await measuredDeletion(['m27']);
    expect([pointed.answer.status, pointed.answer.body.params?.referring]).toEqual([409, expect.any(Array)]);
    expect(pointed.answer.body.params.referring).toHaveLength(50);
    expect(pointed.answer.body.params.referringMore).toBe(true);
    expect(pointed.scanned).toBeLessThanOrEqual(60);

    const alone = await measuredDeletion(['m29p99']);
    expect(alone.answer.status, alone.answer.text).toBe(200);
    expect(alone.scanned).toBe(0);

    // A massif deleted with its places: they point to it, and being deleted too they do not count.
    const massif = ['m28', ...Array.from({ length: PLACES_PER_MASSIF }, (_, p) => `m28p${p}`)];
    const whole = await measuredDeletion(massif);
    expect(whole.answer.status, whole.answer.text).toBe(200);
    expect(whole.scanned).toBeLessThanOrEqual(massif.length);
    expect(await placeKey(massifs, 'm28p3')).toBeUndefined();
  });
});

/** Sites under valleys, and counts deposited in versions scoped by site: a version keeps its site's key. */
const VALLEYS_YAML = `
OA_version: 2.0.1
OA_application:
  OA_name: valleys
  OA_version: 1.0.0
  OA_i18n:
    OA_title: {fr: Vallées, en: Valleys}
OA_data:
  valleys:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      valley:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: valleys, OA_isParent: true}}}
  counts:
    OA_tags: [__DATA__]
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      individuals:
        OA_checker: {OA_name: OA_integer}
    OA_authorizations:
      OA_authorizationScope: [site]
      OA_timeScope: day
    OA_submission:
      OA_strategy: OA_VERSIONING
      OA_submissionScope:
        OA_referenceScopes:
          - OA_reference: sites
            OA_component: site
        OA_timeScope:
          OA_component: day
      OA_fileName:
        OA_filePattern: "(.*)~(.*)~(.*)\\\\.csv"
        OA_matchPatternScopes: [site, __START_DATE__, __END_DATE__]
`;

describe('versions scoped on a moved row', () => {
  it('refuse the move while unpublished, and while published', async () => {
    const server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
    try {
      const owner = await signedIn(server, ROOT);
      await createApplication(owner, 'valleys', VALLEYS_YAML);
      const load = (reference: string, csv: string) =>
        uploadReference(owner, 'valleys', reference, `${reference}.csv`, csv);
      expect((await load('valleys', 'code\nchamonix\nmaurienne\n')).status).toBe(201);
      expect((await load('sites', 'code;valley\nlac_blanc;chamonix\nmont_joly;chamonix\n')).status).toBe(201);
      const form = new FormData();
      form.append(
        'params',
        JSON.stringify({
          binaryfiledataset: {
            datatype: 'counts',
            requiredAuthorizations: { site: 'lac_blanc' },
            from: '2024-06-01 00:00:00',
            to: '2024-06-30 23:59:59',
            comment: '',
          },
        }),
      );
      form.append(
        'file',
        new Blob(['site;day;individuals\nlac_blanc;02/06/2024;3\n']),
        'lac_blanc~01-06-2024~30-06-2024.csv',
      );
      const deposited = await owner.post('/applications/valleys/data/counts', { body: form });
      expect(deposited.status, deposited.text).toBe(201);

      const moving = 'code;valley\nlac_blanc;maurienne\nmont_joly;chamonix\n';
      const unpublished = await load('sites', moving);
      expect([unpublished.status, unpublished.body.params?.rows, unpublished.body.params?.versions]).toEqual([
        409,
        'lac_blanc',
        [{ dataName: 'counts', naturalKey: 'lac_blanc~01-06-2024~30-06-2024.csv' }],
      ]);

      const published = await owner.post('/applications/valleys/data/counts', {
        json: { fileid: deposited.body.fileId, topublish: true },
      });
      expect(published.status, published.text).toBeLessThan(300);
      await waitForJob(owner, 'valleys', deposited.body.fileId);
      const refused = await load('sites', moving);
      expect([refused.status, refused.body.params?.referring]).toEqual([
        409,
        [{ dataName: 'counts', naturalKey: 'lac_blanc__02_06_2024' }],
      ]);
      // Moving the site nothing points to is accepted.
      expect((await load('sites', 'code;valley\nlac_blanc;chamonix\nmont_joly;maurienne\n')).status).toBe(201);
    } finally {
      await server.close();
    }
  });
});
