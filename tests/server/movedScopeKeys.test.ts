/**
 * Grants, rights requests and additional files name scope nodes by their hierarchical keys. A reload moving a row
 * nothing in the data points to (its key changes) carries them over to the new key in its own transaction, and says
 * how many followed; a refused reload leaves them as they were. A data type whose rows lie within others is watched
 * as a reference is. On a small tree, then at size.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, GENEROUS_RATE_LIMITS, signedIn, type Account } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { createApplication, csvForm, q, ROOT, uploadReference } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { plansOf, rowsScanned } from './statementsRead.ts';

/** Places within places, sightings scoped by place, stations (a data type) within places and readings of them. */
const RANGES_YAML = `
OA_version: 2.0.1
OA_application:
  OA_name: ranges
  OA_version: 1.0.0
  OA_i18n:
    OA_title: {fr: Chaînes, en: Ranges}
OA_data:
  places:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      within:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places, OA_isParent: true}}}
  sightings:
    OA_tags: [__DATA__]
    OA_naturalKey: [place, day]
    OA_basicComponents:
      place:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      birds:
        OA_checker: {OA_name: OA_integer}
    OA_authorizations:
      OA_authorizationScope: [place]
      OA_timeScope: day
  stations:
    OA_tags: [__DATA__]
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      place:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: places, OA_isParent: true}}}
  readings:
    OA_tags: [__DATA__]
    OA_naturalKey: [station, day]
    OA_basicComponents:
      station:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: stations}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      title:
        OA_i18n:
          OA_title: {fr: Titre, en: Title}
        OA_required: true
`;

const APP = '/applications/ranges';
const PLACES = 'code;within\nalps;\nmont_blanc;alps\naiguilles;mont_blanc\nmont_blanc_sud;alps\nvanoise;alps\n';
const key = (...codes: string[]) => codes.map((code) => `placesK${code}`).join('.');

interface Ranges {
  server: TestServer;
  owner: ApiClient;
  reader: Account;
  readerClient: ApiClient;
}

async function startRanges(places: string): Promise<Ranges> {
  const server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  const owner = await signedIn(server, ROOT);
  await createApplication(owner, 'ranges', RANGES_YAML);
  const loaded = await uploadReference(owner, 'ranges', 'places', 'places.csv', places);
  expect(loaded.status, loaded.text).toBe(201);
  const reader = await activeAccount(server);
  return { server, owner, reader, readerClient: await signedIn(server, reader) };
}

const loadPlaces = (ranges: Ranges, csv: string) =>
  uploadReference(ranges.owner, 'ranges', 'places', 'places.csv', csv);
const loadData = (client: ApiClient, dataType: string, csv: string) =>
  client.post(`${APP}/data/${dataType}`, { body: csvForm(`${dataType}.csv`, csv) });

/** Grants `login` the sightings of the places `keys` name. */
async function grantSightings(ranges: Ranges, name: string, login: string, keys: string[]): Promise<string> {
  const granted = await ranges.owner.post(`${APP}/authorization`, {
    json: {
      name,
      usersId: [login],
      authorizationsWithRestriction: {
        sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: keys } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  return granted.body.authorizationId as string;
}

/** The place keys an authorization grants the sightings of, as its form reads them. */
async function grantedPlaces(ranges: Ranges, id: string): Promise<string[]> {
  const read = await ranges.owner.get(`${APP}/authorization/${id}`);
  expect(read.status, read.text).toBe(200);
  return JSON.stringify(read.body).match(/placesK[\w.]+/g) ?? [];
}

/** The sightings a client reads, by natural key. */
async function sightingsRead(client: ApiClient): Promise<string[]> {
  const page = await client.get(`${APP}/data/sightings/json${q({ offset: 0, limit: 1000 })}`);
  if (page.status === 403) return [];
  expect(page.status, page.text).toBe(200);
  return (page.body.rows as Array<{ naturalKey: string }>).map((row) => row.naturalKey).sort();
}

async function askRights(client: ApiClient, keys: string[]): Promise<string> {
  const asked = await client.post(`${APP}/rightsRequest`, {
    json: {
      id: null,
      fields: {},
      comment: 'For a thesis',
      rightsRequest: {
        authorizationsWithRestriction: {
          sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: keys } },
        },
      },
    },
  });
  expect(asked.status, asked.text).toBe(201);
  return asked.body.id as string;
}

async function requestedPlaces(ranges: Ranges, id: string): Promise<string[]> {
  const listed = await ranges.owner.get(
    `${APP}/rightsRequest?params=${encodeURIComponent(JSON.stringify({ uuids: [id] }))}`,
  );
  expect(listed.status, listed.text).toBe(200);
  return JSON.stringify(listed.body.rightsRequests).match(/placesK[\w.]+/g) ?? [];
}

async function addNote(ranges: Ranges, keys: string[]): Promise<string> {
  const name = `note ${randomUUID()}.txt`;
  const form = new FormData();
  form.append(
    'params',
    JSON.stringify({
      id: null,
      fileName: name,
      comment: 'A note on the place',
      fields: { title: 'Note' },
      associates: { sightings: { scopes: { place: keys } } },
      forApplication: false,
    }),
  );
  form.append('file', new Blob(['a note'], { type: 'text/plain' }), name);
  const added = await ranges.owner.post(`${APP}/additionalFiles/notes`, { body: form });
  expect(added.status, added.text).toBe(201);
  return added.body.id as string;
}

async function notePlaces(ranges: Ranges, id: string): Promise<string[]> {
  const read = await ranges.owner.get(`${APP}/additionalFiles/notes/${id}`);
  expect(read.status, read.text).toBe(200);
  return (read.body.associates.sightings.scopes.place as string[]).slice().sort();
}

describe('grants, requests and files naming a moved row', () => {
  let ranges: Ranges;
  beforeAll(async () => {
    ranges = await startRanges(PLACES);
    const sightings = await loadData(ranges.owner, 'sightings', 'place;day;birds\naiguilles;05/06/2024;1\n');
    expect(sightings.status, sightings.text).toBe(201);
  });
  afterAll(() => ranges?.server.close());

  it('follow the row to its new key, in the reload, which says how many', async () => {
    const grant = await grantSightings(ranges, 'south', ranges.reader.login, [key('alps', 'mont_blanc_sud')]);
    const other = await grantSightings(ranges, 'vanoise', ranges.reader.login, [key('alps', 'vanoise')]);
    const request = await askRights(ranges.readerClient, [key('alps', 'mont_blanc_sud'), key('alps', 'vanoise')]);
    const note = await addNote(ranges, [key('alps', 'mont_blanc_sud')]);

    const moved = await loadPlaces(ranges, PLACES.replace('mont_blanc_sud;alps', 'mont_blanc_sud;vanoise'));
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body.moved).toEqual({ rows: 1, authorizations: 1, rightsRequests: 1, additionalFiles: 1 });

    const south = key('alps', 'vanoise', 'mont_blanc_sud');
    expect(await grantedPlaces(ranges, grant)).toEqual([south]);
    expect(await grantedPlaces(ranges, other)).toEqual([key('alps', 'vanoise')]);
    expect((await requestedPlaces(ranges, request)).sort()).toEqual([key('alps', 'vanoise'), south].sort());
    expect(await notePlaces(ranges, note)).toEqual([south]);

    // The reader granted the place reads what is loaded on it once it has moved.
    const loaded = await loadData(ranges.owner, 'sightings', 'place;day;birds\nmont_blanc_sud;06/06/2024;2\n');
    expect(loaded.status, loaded.text).toBe(201);
    expect(await sightingsRead(ranges.readerClient)).toEqual(['mont_blanc_sud__06_06_2024']);

    // Loading the same file again moves nothing and says nothing of it.
    const again = await loadPlaces(ranges, PLACES.replace('mont_blanc_sud;alps', 'mont_blanc_sud;vanoise'));
    expect([again.status, again.body.moved]).toEqual([201, undefined]);
  });

  it('stay as they were when the reload is refused', async () => {
    const grant = await grantSightings(ranges, 'aiguilles', ranges.reader.login, [key('alps', 'mont_blanc')]);
    const note = await addNote(ranges, [key('alps', 'mont_blanc'), key('alps', 'mont_blanc', 'aiguilles')]);
    // Sightings point to the Aiguilles: moving the Mont Blanc with them is refused, and nothing follows.
    const refused = await loadPlaces(ranges, PLACES.replace('mont_blanc;alps', 'mont_blanc;vanoise'));
    expect([refused.status, refused.body.code], refused.text).toEqual([409, 'MOVED_REFERENCED_ROWS']);
    expect(await grantedPlaces(ranges, grant)).toEqual([key('alps', 'mont_blanc')]);
    expect(await notePlaces(ranges, note)).toEqual([key('alps', 'mont_blanc'), key('alps', 'mont_blanc', 'aiguilles')]);
  });
});

describe('a data type whose rows lie within others', () => {
  let ranges: Ranges;
  beforeAll(async () => {
    ranges = await startRanges(PLACES);
    const stations = await loadData(ranges.owner, 'stations', 'code;place\nrefuge;aiguilles\nlac;vanoise\n');
    expect(stations.status, stations.text).toBe(201);
    const readings = await loadData(ranges.owner, 'readings', 'station;day\nrefuge;05/06/2024\n');
    expect(readings.status, readings.text).toBe(201);
  });
  afterAll(() => ranges?.server.close());

  it('refuses moving a row others point to, and moves one nothing points to', async () => {
    const refused = await loadData(ranges.owner, 'stations', 'code;place\nrefuge;mont_blanc_sud\n');
    expect([refused.status, refused.body.code, refused.body.params], refused.text).toEqual([
      409,
      'MOVED_REFERENCED_ROWS',
      {
        rows: 'refuge',
        more: 'no',
        referring: [{ dataName: 'readings', naturalKey: 'refuge__05_06_2024' }],
        referringMore: false,
        versions: [],
      },
    ]);
    const moved = await loadData(ranges.owner, 'stations', 'code;place\nlac;mont_blanc_sud\n');
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body.moved).toEqual({ rows: 1, authorizations: 0, rightsRequests: 0, additionalFiles: 0 });
  });
});

/** Massifs under the Alps, each with its places; sightings on the places of the first `POINTED` massifs. */
const MASSIFS = 30;
const PLACES_PER_MASSIF = 100;
const POINTED = 20;
/** Grants, requests and files of each kind: each names one place, as many on each massif. */
const NAMING = 3_000;
/** The massifs the reload moves under the first one: nothing points to their places. */
const MOVED_MASSIFS = Array.from({ length: MASSIFS - POINTED }, (_, m) => `m${POINTED + m}`);

function massifsCsv(moves: Record<string, string> = {}): string {
  const lines = ['code;within', 'alps;'];
  for (let m = 0; m < MASSIFS; m += 1) {
    lines.push(`m${m};${moves[`m${m}`] ?? 'alps'}`);
    for (let p = 0; p < PLACES_PER_MASSIF; p += 1) lines.push(`m${m}p${p};m${m}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The place the `i`th grant, request or file names, and its key before any move. */
const namedPlace = (i: number) => ({
  massif: `m${i % MASSIFS}`,
  key: key('alps', `m${i % MASSIFS}`, `m${i % MASSIFS}p${Math.floor(i / MASSIFS) % PLACES_PER_MASSIF}`),
});

describe('at size: thousands of grants, requests and files on a reference of thousands of rows', () => {
  let ranges: Ranges;
  let applicationId: string;
  let firstGrant: string;
  const db = () => ranges.server.server.ctx.db;
  const rules = (keys: string[]) =>
    JSON.stringify({
      forAll: {},
      restricted: { sightings: [{ operations: ['extraction'], scopes: { place: keys }, from: null, to: null }] },
    });

  beforeAll(async () => {
    ranges = await startRanges(massifsCsv());
    const lines: string[] = [];
    for (let m = 0; m < POINTED; m += 1)
      for (let p = 0; p < PLACES_PER_MASSIF; p += 1) lines.push(`m${m}p${p};01/06/2024;${p}`);
    const sightings = await loadData(ranges.owner, 'sightings', `place;day;birds\n${lines.join('\n')}\n`);
    expect(sightings.status, sightings.text).toBe(201);
    applicationId = (
      await db().selectFrom('applications').select('id').where('name', '=', 'ranges').executeTakeFirstOrThrow()
    ).id;
    // Written straight into the tables: thousands of saves over HTTP would only slow the test down.
    const ids = Array.from({ length: NAMING }, () => randomUUID());
    firstGrant = ids[0];
    for (let start = 0; start < NAMING; start += 1_000) {
      const slice = ids.slice(start, start + 1_000).map((id, offset) => ({ id, i: start + offset }));
      await db()
        .insertInto('authorizations')
        .values(
          slice.map(
            ({ id, i }) =>
              ({ id, application_id: applicationId, name: `grant ${i}`, rules: rules([namedPlace(i).key]) }) as never,
          ),
        )
        .execute();
      await db()
        .insertInto('rights_requests')
        .values(
          slice.map(
            ({ i }) =>
              ({
                id: randomUUID(),
                application_id: applicationId,
                user_id: ranges.reader.id,
                comment: `request ${i}`,
                rules: rules([namedPlace(i).key]),
              }) as never,
          ),
        )
        .execute();
      await db()
        .insertInto('additional_files')
        .values(
          slice.map(
            ({ i }) =>
              ({
                id: randomUUID(),
                application_id: applicationId,
                file_type: 'notes',
                file_name: `note ${i}.txt`,
                name_key: `note ${i}.txt`,
                size: 1,
                content_id: randomUUID(),
                fields: JSON.stringify({ title: `Note ${i}` }),
                associates: JSON.stringify({ sightings: { scopes: { place: [namedPlace(i).key] } } }),
              }) as never,
          ),
        )
        .execute();
    }
  }, 180_000);
  afterAll(() => ranges?.server.close());

  /** How many rows of `table` still name one of `keys`. */
  async function naming(table: 'authorizations' | 'rights_requests' | 'additional_files', keys: string[]) {
    const [column, path] =
      table === 'additional_files' ? ['associates', '$.*.scopes.*[*]'] : ['rules', '$.restricted.*[*].scopes.*[*]'];
    const found = await sql<{ count: string | number }>`
      select count(*) as count from ${sql.table(table)}
      where application_id = ${applicationId}
        and jsonb_path_query_array(${sql.ref(column)}, ${path}::jsonpath) ?| ${keys}::text[]`.execute(db());
    return Number(found.rows[0].count);
  }

  /** The look-up of one table's rows naming a moved key (its rewrite, which EXPLAIN ANALYZE would run twice, left out). */
  const lookUp = (table: string) => `as value from "${table}"`;

  const massifKeys = (massifs: string[]) =>
    massifs.flatMap((m) => [
      key('alps', m),
      ...Array.from({ length: PLACES_PER_MASSIF }, (_, p) => key('alps', m, `${m}p${p}`)),
    ]);

  it('refuses moving a pointed massif, and its grants, requests and files stay', async () => {
    const before = await Promise.all([
      naming('authorizations', massifKeys(['m3'])),
      naming('additional_files', massifKeys(['m3'])),
    ]);
    expect(before).toEqual([NAMING / MASSIFS, NAMING / MASSIFS]);
    const refused = await loadPlaces(ranges, massifsCsv({ m3: 'm4' }));
    expect([refused.status, refused.body.code], refused.text).toEqual([409, 'MOVED_REFERENCED_ROWS']);
    expect(
      await Promise.all([naming('authorizations', massifKeys(['m3'])), naming('additional_files', massifKeys(['m3']))]),
    ).toEqual(before);
  });

  it('moves massifs nothing points to, their grants, requests and files with them, reading each table once', async () => {
    const reader = await grantSightings(ranges, 'a moved place', ranges.reader.login, [key('alps', 'm27', 'm27p5')]);
    const moves = Object.fromEntries(MOVED_MASSIFS.map((m) => [m, 'm0']));
    const began = performance.now();
    const [[[moved, grantsRead], requestsRead], filesRead] = await rowsScanned(
      db(),
      () =>
        rowsScanned(
          db(),
          () =>
            rowsScanned(db(), () => loadPlaces(ranges, massifsCsv(moves)), lookUp('authorizations'), 'authorizations'),
          lookUp('rights_requests'),
          'rights_requests',
        ),
      lookUp('additional_files'),
      'additional_files',
    );
    const took = performance.now() - began;
    console.info(
      `moved ${JSON.stringify(moved.body.moved)} in ${Math.round(took)} ms (measured); read ${grantsRead} grants, ${requestsRead} requests, ${filesRead} files`,
    );
    expect(moved.status, moved.text).toBe(201);
    const share = (NAMING / MASSIFS) * MOVED_MASSIFS.length;
    expect(moved.body.moved).toEqual({
      rows: MOVED_MASSIFS.length * (1 + PLACES_PER_MASSIF),
      authorizations: share + 1,
      rightsRequests: share,
      additionalFiles: share,
    });
    // Each table is read once for the rows naming a moved key, its application's rows and no more.
    expect(grantsRead).toBeLessThanOrEqual(NAMING + 10);
    expect(requestsRead).toBeLessThanOrEqual(NAMING);
    expect(filesRead).toBeLessThanOrEqual(NAMING);

    const former = massifKeys(MOVED_MASSIFS);
    expect(
      await Promise.all([
        naming('authorizations', former),
        naming('rights_requests', former),
        naming('additional_files', former),
      ]),
    ).toEqual([0, 0, 0]);
    const now = massifKeys(MOVED_MASSIFS).map((k) => k.replace('placesKalps.', 'placesKalps.placesKm0.'));
    expect(
      await Promise.all([
        naming('authorizations', now),
        naming('rights_requests', now),
        naming('additional_files', now),
      ]),
    ).toEqual([share + 1, share, share]);
    // A grant the reload did not concern keeps its place.
    expect(await grantedPlaces(ranges, firstGrant)).toEqual([namedPlace(0).key]);
    // The reader granted a moved place over HTTP reads what is loaded there afterwards.
    expect(await grantedPlaces(ranges, reader)).toEqual([key('alps', 'm0', 'm27', 'm27p5')]);
    const loaded = await loadData(ranges.owner, 'sightings', 'place;day;birds\nm27p5;02/06/2024;4\n');
    expect(loaded.status, loaded.text).toBe(201);
    expect(await sightingsRead(ranges.readerClient)).toEqual(['m27p5__02_06_2024']);

    // The same file again moves nothing: no grant is looked at.
    const sameBegan = performance.now();
    const [same, looked] = await rowsScanned(
      db(),
      () => loadPlaces(ranges, massifsCsv(moves)),
      lookUp('authorizations'),
      'authorizations',
    );
    console.info(`the same file again in ${Math.round(performance.now() - sameBegan)} ms (measured)`);
    expect([same.status, same.body.moved, looked]).toEqual([201, undefined, 0]);
  });

  it('moves one place, reading only the grant, request and file naming it, by their index of keys', async () => {
    // The 171st grant, request and file name m20p5, which the file moves from m20 to m21 (both under m0 now).
    const moves = Object.fromEntries(MOVED_MASSIFS.map((m) => [m, 'm0']));
    const csv = massifsCsv(moves).replace('\nm20p5;m20\n', '\nm20p5;m21\n');
    const lookedUp = async (file: string) => {
      const [[[[moved, grantsRead], requestsRead], filesRead], plans] = await plansOf(
        db(),
        () =>
          rowsScanned(
            db(),
            () =>
              rowsScanned(
                db(),
                () => rowsScanned(db(), () => loadPlaces(ranges, file), lookUp('authorizations'), 'authorizations'),
                lookUp('rights_requests'),
                'rights_requests',
              ),
            lookUp('additional_files'),
            'additional_files',
          ),
        // The look-ups as sent, not as rowsScanned runs them again under EXPLAIN ANALYZE.
        (statement) => statement.includes('?|') && !statement.startsWith('explain'),
      );
      expect(moved.status, moved.text).toBe(201);
      expect(moved.body.moved).toEqual({ rows: 1, authorizations: 1, rightsRequests: 1, additionalFiles: 1 });
      return {
        read: [grantsRead, requestsRead, filesRead],
        indexes: plans.map((plan) => plan.flatMap((scan) => (scan.index ? [scan.index] : []))),
        wholeTables: plans.flatMap((plan) => plan.flatMap((scan) => (scan.node === 'Seq Scan' ? [scan.table] : []))),
      };
    };
    // As the embedded database knows the tables (nothing analyzes them), then as PostgreSQL's autovacuum would
    // after their thousands of rows were written.
    const scopeKeys = ['authorizations_scope_keys', 'rights_requests_scope_keys', 'additional_files_scope_keys'];
    const before = await lookedUp(csv);
    expect(before.read).toEqual([1, 1, 1]);
    expect(before.wholeTables).toEqual([]);
    before.indexes.forEach((used, table) => expect(used).toContain(scopeKeys[table]));
    for (const table of ['authorizations', 'rights_requests', 'additional_files'])
      await sql`analyze ${sql.table(table)}`.execute(db());
    const after = await lookedUp(massifsCsv(moves));
    expect(after).toEqual({ read: [1, 1, 1], indexes: scopeKeys.map((index) => [index]), wholeTables: [] });
    expect(await naming('authorizations', [key('alps', 'm0', 'm20', 'm20p5')])).toBe(1);
  });
});
