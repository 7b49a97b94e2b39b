import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { filterRows, type KeptRow } from '../../src/domain/rows/filterRows.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { modelOf, q, readCsv, unzipText } from './dataFixtures.ts';
import type { TestServer } from './harness.ts';
import { MASSIFS_PLACES_CSV, startMassifsServer } from './massifsFixtures.ts';

/**
 * Partial readers at real size (adversarial review): three years of daily sightings in ten places (10,960 rows,
 * more than the export page of 5,000 and the page limit of 1,000), read by a reader holding the Mont Blanc sub-tree
 * over a period whose bounds fall inside pages (2022-03-15 to 2024-10-20: 5,706 rows), and by a reader holding two
 * grants (the sub-tree in 2022, and the Vanoise in June 2024). Every read path must give exactly the rows granted:
 * pages (plain, sorted, filtered) across every page boundary, the totals, the JSON, CSV and zip exports, and the
 * synthesis; filters naming only hidden rows must find nothing and count nothing.
 */

/** The fixture's places, and more: some under the Mont Blanc, one whose key begins like it but lies outside. */
const PLACES_CSV = `${MASSIFS_PLACES_CSV.trimEnd()}
mb_a;mont_blanc
mb_b;aiguilles
mb_c;mont_blanc
mb_d;mb_a
mont_blancx;alps
`;
const PLACES = [
  'alps',
  'mont_blanc',
  'aiguilles',
  'mont_blanc_sud',
  'vanoise',
  'mb_a',
  'mb_b',
  'mb_c',
  'mb_d',
  'mont_blancx',
];
const MONT_BLANC = new Set(['mont_blanc', 'aiguilles', 'mb_a', 'mb_b', 'mb_c', 'mb_d']);

interface Sighting {
  place: string;
  iso: string;
  key: string;
  line: string;
  birds: number;
}

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');
const SIGHTINGS: Sighting[] = [];
for (let time = Date.UTC(2022, 0, 1); time < Date.UTC(2025, 0, 1); time += DAY) {
  const day = new Date(time);
  const dd = pad(day.getUTCDate());
  const mm = pad(day.getUTCMonth() + 1);
  const yyyy = day.getUTCFullYear();
  PLACES.forEach((place, i) => {
    // Many ties, so that a sort by birds relies on its tie-break across page boundaries.
    const birds = (time / DAY + i * 3) % 23;
    SIGHTINGS.push({
      place,
      iso: `${yyyy}-${mm}-${dd}`,
      key: `${place}__${dd}_${mm}_${yyyy}`,
      line: `${place};${dd}/${mm}/${yyyy};${birds}`,
      birds,
    });
  });
}

const PERIOD = { fromDay: '2022-03-15', toDay: '2024-10-20' };
const grantedToReader = (s: Sighting) => MONT_BLANC.has(s.place) && s.iso >= PERIOD.fromDay && s.iso <= PERIOD.toDay;
const grantedToUnion = (s: Sighting) =>
  (MONT_BLANC.has(s.place) && s.iso.startsWith('2022-')) ||
  (s.place === 'vanoise' && s.iso >= '2024-06-01' && s.iso <= '2024-06-30');

const sorted = (items: string[]) => [...items].sort();
const keysOf = (rows: Sighting[]) => rows.map((s) => s.key);
const csvLines = (text: string) =>
  readCsv(text, ';')
    .slice(1)
    .map((fields) => fields.join(';'));

let server: TestServer;
let owner: ApiClient;
let reader: ApiClient;
let union: ApiClient;

let keyOf: (code: string) => string;

beforeAll(async () => {
  ({
    server,
    owner,
    placeKey: keyOf,
  } = await startMassifsServer(
    SIGHTINGS.map((s) => s.line),
    PLACES_CSV,
  ));
  const grant = async (login: string, name: string, place: string, timeScope: object) => {
    const answer = await owner.post('/applications/massifs/authorization', {
      json: {
        name,
        description: 'partial reader at scale',
        usersId: [login],
        authorizationsWithRestriction: {
          sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: [keyOf(place)] }, timeScope },
        },
      },
    });
    expect(answer.status, answer.text).toBe(201);
  };
  const [readerAccount, unionAccount] = await Promise.all([
    activeAccount(server, newIdentity('scalereader')),
    activeAccount(server, newIdentity('scaleunion')),
  ]);
  await grant(readerAccount.login, 'Mont Blanc over a period', 'mont_blanc', PERIOD);
  await grant(unionAccount.login, 'Mont Blanc in 2022', 'mont_blanc', { fromDay: '2022-01-01', toDay: '2022-12-31' });
  await grant(unionAccount.login, 'Vanoise in June 2024', 'vanoise', { fromDay: '2024-06-01', toDay: '2024-06-30' });
  reader = await signedIn(server, readerAccount);
  union = await signedIn(server, unionAccount);
}, 180_000);

afterAll(async () => {
  await server?.close();
});

async function json(client: ApiClient, query: object) {
  const answer = await client.get(`/applications/massifs/data/sightings/json${q(query)}`);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer.body as { rows: Array<{ naturalKey: string; values: { birds: unknown } }>; totalRows: number };
}

/** Every page of a query, `limit` rows at a time: the keys in page order, and each page's total. */
async function allPages(client: ApiClient, query: object, limit: number) {
  const keys: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const page = await json(client, { ...query, offset, limit });
    totals.add(page.totalRows);
    keys.push(...page.rows.map((row) => row.naturalKey));
    if (page.rows.length < limit) break;
  }
  return { keys, totals: [...totals] };
}

const cases = [
  { who: 'the sub-tree-and-period reader', client: () => reader, granted: SIGHTINGS.filter(grantedToReader) },
  { who: 'the reader of two grants', client: () => union, granted: SIGHTINGS.filter(grantedToUnion) },
];

describe.each(cases)('$who', ({ client, granted }) => {
  it('has a dataset of the size meant', () => {
    expect(SIGHTINGS.length).toBe(10_960);
    expect(granted.length).toBeGreaterThan(300);
  });

  it('pages through exactly the granted rows, without gap or repeat, with the right total', async () => {
    const plain = await allPages(client(), {}, 1000);
    expect(plain.totals).toEqual([granted.length]);
    expect(plain.keys.length).toBe(granted.length);
    expect(new Set(plain.keys).size).toBe(granted.length);
    expect(sorted(plain.keys)).toEqual(sorted(keysOf(granted)));
  });

  it('pages sorted by birds (many ties), descending, in the order of the sort then the natural key', async () => {
    const pages = await allPages(client(), { componentOrderBy: [{ componentKey: 'birds', order: 'DESC' }] }, 997);
    expect(pages.totals).toEqual([granted.length]);
    const want = [...granted]
      .sort((a, b) => b.birds - a.birds || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((s) => s.key);
    expect(pages.keys).toEqual(want);
  });

  it('streams the whole JSON export (no limit) with every granted row once', async () => {
    const all = await json(client(), {});
    expect(all.totalRows).toBe(granted.length);
    expect(sorted(all.rows.map((row) => row.naturalKey))).toEqual(sorted(keysOf(granted)));
  });

  it('exports as CSV and zip every granted row once, sorted or not', async () => {
    for (const query of [{}, { componentOrderBy: [{ componentKey: 'birds', order: 'ASC' }] }]) {
      const csv = await client().get(`/applications/massifs/data/sightings/csv${q(query)}`);
      expect(csv.status).toBe(200);
      const lines = csvLines(csv.text);
      expect(lines.length).toBe(granted.length);
      expect(sorted(lines)).toEqual(sorted(granted.map((s) => s.line)));
    }
    const zip = await fetch(`${server.url}/api/v1/applications/massifs/data/sightings/zip`, {
      headers: { cookie: client().cookieHeader },
    });
    expect(zip.status).toBe(200);
    const files = unzipText(new Uint8Array(await zip.arrayBuffer()));
    expect(sorted(csvLines(files['sightings.csv']))).toEqual(sorted(granted.map((s) => s.line)));
    // The reader holds no right on the places: the zip holds no copy of them.
    expect(Object.keys(files)).toEqual(['sightings.csv']);
  });

  it('filters within the grant only: a filter naming hidden rows finds and counts nothing', async () => {
    for (const place of ['mont_blanc_sud', 'mont_blancx']) {
      const hidden = await json(client(), {
        limit: 1000,
        componentFilters: [{ componentKey: 'place', filters: [place] }],
      });
      expect({ place, rows: hidden.rows.length, total: hidden.totalRows }).toEqual({ place, rows: 0, total: 0 });
      const csv = await client().get(
        `/applications/massifs/data/sightings/csv${q({ componentFilters: [{ componentKey: 'place', filters: [place] }] })}`,
      );
      expect(csvLines(csv.text)).toEqual([]);
    }
    // The hidden years by a date interval: nothing, counted as nothing.
    const late = await json(client(), {
      limit: 10,
      componentFilters: [{ componentKey: 'day', intervalValues: { from: '2024-11-01', to: '2024-12-31' } }],
    });
    expect(late.totalRows).toBe(0);
    // A visible place and a hidden one together: the visible one's granted rows only (its own and those of the place
    // within it), across pages.
    const aiguilles = granted.filter((s) => s.place === 'aiguilles' || s.place === 'mb_b');
    const both = await allPages(
      client(),
      { componentFilters: [{ componentKey: 'place', filters: ['aiguilles', 'mont_blanc_sud'] }] },
      100,
    );
    expect(both.totals).toEqual([aiguilles.length]);
    expect(sorted(both.keys)).toEqual(sorted(keysOf(aiguilles)));
    // The Alps hold every place: their sub-tree is all the granted rows, the hidden ones still left out.
    const alps = await allPages(client(), { componentFilters: [{ componentKey: 'place', filters: ['alps'] }] }, 1000);
    expect(alps.totals).toEqual([granted.length]);
    expect(sorted(alps.keys)).toEqual(sorted(keysOf(granted)));
    // Birds between 5 and 9, combined with the grant.
    const some = granted.filter((s) => s.birds >= 5 && s.birds <= 9);
    const birds = await allPages(
      client(),
      { componentFilters: [{ componentKey: 'birds', intervalValues: { from: '5', to: '9' } }] },
      1000,
    );
    expect(birds.totals).toEqual([some.length]);
    expect(sorted(birds.keys)).toEqual(sorted(keysOf(some)));
  });

  it('gives nothing by natural key or row id outside the grant', async () => {
    const hidden = SIGHTINGS.filter((s) => !granted.includes(s)).slice(0, 50);
    const byKey = await json(client(), { limit: 100, naturalKeys: keysOf(hidden) });
    expect(byKey.totalRows).toBe(0);
    const ownerView = await json(owner, { limit: 100, naturalKeys: keysOf(hidden) });
    const ids = (ownerView.rows as Array<{ naturalKey: string; id?: string }>).map((row) => row.id!);
    expect(ids.length).toBe(50);
    const byId = await json(client(), { limit: 100, rowIds: ids });
    expect(byId.totalRows).toBe(0);
  });

  it('exports past its first page with as many sorts as a URL holds (180), or refuses them', async () => {
    const componentOrderBy = Array.from({ length: 180 }, (_, i) => ({
      componentKey: i % 2 ? 'birds' : 'place',
      order: 'DESC',
    }));
    const answer = await fetch(
      `${server.url}/api/v1/applications/massifs/data/sightings/csv${q({ componentOrderBy })}`,
      {
        headers: { cookie: client().cookieHeader },
      },
    );
    if (answer.status === 400) return;
    expect(answer.status).toBe(200);
    const lines = csvLines(await answer.text());
    expect(sorted(lines)).toEqual(sorted(granted.map((s) => s.line)));
  });

  it('counts in the synthesis the granted lines only', async () => {
    const synthesis = await client().get('/applications/massifs/synthesis/sightings');
    expect(synthesis.status).toBe(200);
    const sum = (counts: number[] = []) => counts.reduce((a, b) => a + b, 0);
    expect(sum(synthesis.body.variables.birds)).toBe(granted.length);
    expect(sum(synthesis.body.variables.place)).toBe(granted.length);
    const one = await client().get('/applications/massifs/synthesis/sightings/birds');
    expect(sum(one.body.variables.birds)).toBe(granted.length);
  });
});

describe('filters naming places as the original names them (a reader of everything)', () => {
  const underMontBlanc = SIGHTINGS.filter((s) => MONT_BLANC.has(s.place));
  const filtered = (filters: string[]) =>
    allPages(owner, { componentFilters: [{ componentKey: 'place', filters }] }, 1000);

  it('takes a place and every place within it, named by its hierarchical key or its natural key', async () => {
    expect(underMontBlanc.length).toBeGreaterThan(5_000);
    for (const name of [keyOf('mont_blanc'), 'mont_blanc']) {
      const read = await filtered([name]);
      expect({ name, totals: read.totals }).toEqual({ name, totals: [underMontBlanc.length] });
      expect(sorted(read.keys)).toEqual(sorted(keysOf(underMontBlanc)));
    }
    const csv = await owner.get(
      `/applications/massifs/data/sightings/csv${q({ componentFilters: [{ componentKey: 'place', filters: [keyOf('mont_blanc')] }] })}`,
    );
    expect(csvLines(csv.text)).toHaveLength(underMontBlanc.length);
  });

  it('takes a leaf alone, and neither a place whose key only begins alike nor a key of nothing', async () => {
    const leaf = await filtered([keyOf('mb_d')]);
    expect(leaf.totals).toEqual([SIGHTINGS.filter((s) => s.place === 'mb_d').length]);
    const alike = await filtered([keyOf('mont_blancx')]);
    expect(sorted(alike.keys)).toEqual(sorted(keysOf(SIGHTINGS.filter((s) => s.place === 'mont_blancx'))));
    expect((await filtered(['placesKnowhere'])).totals).toEqual([0]);
  });

  it('answers as the offline copy does (filterRows on the places the browser keeps)', async () => {
    const kept = (await owner.get('/applications/massifs/references/places/rows')).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as KeptRow);
    const model = await modelOf(owner, 'massifs');
    const places = model.data.find((entry) => entry.name === 'places')!;
    const hierarchicalKeysOf = (_reference: string, naturalKeys: string[]) =>
      new Set(kept.filter((row) => naturalKeys.includes(row.naturalKey)).map((row) => row.hierarchicalKey));
    const queries: RowQuery[] = [
      { componentFilters: [{ componentKey: 'within', filters: ['alps'] }] },
      { componentFilters: [{ componentKey: 'within', filters: [keyOf('mont_blanc')] }] },
      { componentFilters: [{ componentKey: 'within', filters: ['mb_a', 'mont_blancx'] }] },
      { naturalKeys: [keyOf('mb_d'), 'vanoise'] },
    ];
    for (const query of queries) {
      const online = await owner.get(`/applications/massifs/references/places${q({ ...query, limit: 100 })}`);
      const offline = filterRows(places, kept, { ...query, limit: 100 }, hierarchicalKeysOf);
      expect({ query, keys: sorted(online.body.referenceValues.map((row: KeptRow) => row.naturalKey)) }).toEqual({
        query,
        keys: sorted(offline.rows.map((row) => row.naturalKey)),
      });
      expect(offline.rows.length).toBeGreaterThan(0);
    }
  });

  it('selects rows by natural key or hierarchical key alike', async () => {
    const page = await json(owner, { limit: 3, offset: 2_000 });
    const rows = page.rows as unknown as Array<{ naturalKey: string; hierarchicalKey: string }>;
    const byHierarchy = await json(owner, { limit: 10, naturalKeys: rows.map((row) => row.hierarchicalKey) });
    expect(sorted(byHierarchy.rows.map((row) => row.naturalKey))).toEqual(sorted(rows.map((row) => row.naturalKey)));
    expect(byHierarchy.totalRows).toBe(3);
  });
});
