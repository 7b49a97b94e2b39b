import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { SCOPE_NODES_PAGE, type ScopeNodesPage } from '../../src/contract/authorizations.ts';
import { refreshCount } from '../../server/services/dataRows.ts';
import { findApplication } from '../../server/services/applications.ts';
import { indexSuggestions } from '../../server/services/referenceSuggestions.ts';
import { activeAccount, signedIn } from './accountFixtures.ts';
import { api, type ApiClient } from './apiClient.ts';
import { createApplication, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import { rowsScanned, statementsOf } from './statementsRead.ts';

/**
 * Scope trees at real size (docs/decisions.md, "Scope trees a level at a time"): 50,000 sites under three projects
 * and a recursive reference of 3,003 zones, seeded straight in the database as uploads store them. The three answers
 * that carry the trees (grantable, the rights-request options, the files overview with grantable) send a first page
 * of each large tree; /scopeNodes gives the rest a page at a time and finds a node by label or code. Rows read and
 * answer sizes are asserted, not times.
 */
const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: trees
  OA_version: 1.0.0
  OA_defaultLanguage: fr
  OA_i18n:
    OA_title: {fr: Arbres, en: Trees}
OA_rightsRequest:
  OA_i18n:
    OA_title: {fr: Demande, en: Request}
  OA_formFields:
    motive:
      OA_i18n:
        OA_title: {fr: Motif, en: Motive}
OA_additionalFiles:
  notes:
    OA_i18n:
      OA_title: {fr: Notes, en: Notes}
    OA_formFields:
      title:
        OA_i18n:
          OA_title: {fr: Titre, en: Title}
OA_data:
  projects:
    OA_i18n:
      OA_title: {fr: Projets, en: Projects}
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label}", en: "{label}"}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
  sites:
    OA_i18n:
      OA_title: {fr: Sites, en: Sites}
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label}", en: "{label}"}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      project:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: projects, OA_isParent: true}}}
  zones:
    OA_i18n:
      OA_title: {fr: Zones, en: Zones}
    OA_i18nDisplayPattern:
      OA_title: {fr: "{label}", en: "{label}"}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
      parent: null
    OA_validations:
      parentZone:
        OA_components: [parent]
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isRecursive: true}}}
  counts:
    OA_tags: [__DATA__]
    OA_i18n:
      OA_title: {fr: Comptages, en: Counts}
    OA_naturalKey: [site, zone, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      zone:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
      individuals:
        OA_checker: {OA_name: OA_integer}
    OA_authorizations:
      OA_authorizationScope: [site, zone]
      OA_timeScope: day
`;

const APP = '/applications/trees';
// The statement counting the children of a page's nodes.
const CHILD_WALK = 'walk(parent, key)';
const SITES = 50_000;
const PROJECTS = ['alps', 'jura', 'pyrenees'];
const ZONE_ROOTS = 3;
const ZONES_PER_ROOT = 1_000;
// Parcels under sectors of the last region, a third level: 500 to 599, whose numbers no search below begins with.
const PARCEL_SECTORS = [500, 599];
const PARCELS_PER_SECTOR = 200;

let data: DataServer;
let applicationId: string;
let reader: ApiClient;
const db = () => data.server.server.ctx.db;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'trees', YAML);
  applicationId = (
    await db().selectFrom('applications').select('id').where('name', '=', 'trees').executeTakeFirstOrThrow()
  ).id;
  const loaded = [
    await uploadReference(
      data.admin,
      'trees',
      'projects',
      'p.csv',
      'code;label\nalps;Alpes\njura;Jura\npyrenees;Pyrénées\n',
    ),
    await uploadReference(data.admin, 'trees', 'sites', 's.csv', 'code;label;project\nlac_blanc;Lac Blanc;alps\n'),
    await uploadReference(data.admin, 'trees', 'zones', 'z.csv', 'code;label;parent\nnord;Nord;\n'),
  ];
  for (const answer of loaded) expect(answer.status, answer.text).toBe(201);
  // As an upload stores them: the site's project is its parent, named by its hierarchical key.
  const uploaded = await db()
    .selectFrom('data_rows')
    .select(['hierarchical_key', 'values', 'refs'])
    .where('application_id', '=', applicationId)
    .where('natural_key', '=', 'lac_blanc')
    .executeTakeFirstOrThrow();
  expect(uploaded).toMatchObject({ hierarchical_key: 'projectsKalps.sitesKlac_blanc' });
  expect(uploaded.values).toEqual({ code: 'lac_blanc', label: 'Lac Blanc', project: 'projectsKalps' });
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'sites', 's' || lpad(i::text, 5, '0'),
           'projectsK' || p || '.sitesKs' || lpad(i::text, 5, '0'),
           jsonb_build_object('code', 's' || lpad(i::text, 5, '0'), 'label', 'Site ' || i, 'project', 'projectsK' || p),
           array['projectsK' || p], i + 1
    from (select i, (${PROJECTS}::text[])[1 + i % 3] as p from generate_series(1, ${SITES - 1}) i) g`.execute(db());
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'zones', key, hkey, jsonb_build_object('code', key, 'label', label, 'parent', parent), '{}', n
    from (
      select 'r' || r as key, 'zonesKr' || r as hkey, 'Région ' || r as label, '' as parent, r as n
      from generate_series(1, ${ZONE_ROOTS}) r
      union all
      select 'r' || r || '_' || c, 'zonesKr' || r || '.zonesKr' || r || '_' || c, 'Secteur ' || r || '-' || c, 'r' || r, 10 + r * 10000 + c
      from generate_series(1, ${ZONE_ROOTS}) r, generate_series(1, ${ZONES_PER_ROOT}) c
    ) z`.execute(db());
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'zones', code, ${`zonesKr${ZONE_ROOTS}.zonesKr${ZONE_ROOTS}_`} || c || '.zonesK' || code,
           jsonb_build_object('code', code, 'label', 'Parcelle ' || code, 'parent', ${`r${ZONE_ROOTS}_`} || c), '{}', 100000 + n
    from (select c, 'x' || lpad(n::text, 5, '0') as code, n
          from generate_series(${PARCEL_SECTORS[0]}::int, ${PARCEL_SECTORS[1]}::int) c, generate_series(1, ${PARCELS_PER_SECTOR}::int) k,
               lateral (select (c - ${PARCEL_SECTORS[0]}::int) * ${PARCELS_PER_SECTOR}::int + k as n) i) p`.execute(
    db(),
  );
  for (const name of ['sites', 'zones']) await refreshCount(db(), applicationId, name);
  // The search indexes a load of this size builds.
  const ctx = data.server.server.ctx;
  const application = await findApplication(ctx, 'trees');
  for (const name of ['sites', 'zones'])
    await indexSuggestions(
      ctx,
      applicationId,
      application.model,
      application.model.data.find((d) => d.name === name)!,
    );
  reader = await signedIn(data.server, await activeAccount(data.server));
}, 300_000);
afterAll(() => data?.server.close());

async function read(client: { get: ApiClient['get'] }, path: string) {
  const [answer, , rows] = await statementsOf(db(), () => client.get(path, { headers: { 'Accept-Language': 'fr' } }));
  return { ...answer, rows, bytes: Buffer.byteLength(answer.text) };
}

describe('the answers carrying scope trees send a first page of a large one', () => {
  it.each([
    ['grantable', `${APP}/grantable`],
    ['rights-request options', `${APP}/rightsRequest/options`],
    ['files overview, grantable', `${APP}/additionalFiles?grantable=true`],
  ])('%s reads and sends a bounded amount', async (_, path) => {
    const answer = await read(data.admin, path);
    expect(answer.status, answer.text).toBe(200);
    if (process.env.SCOPE_TREE_FIGURES) console.log(path, { rows: answer.rows, bytes: answer.bytes });
    // Before: every site and zone read and sent (53,004 rows, several megabytes).
    expect(answer.rows).toBeLessThan(500);
    expect(answer.bytes).toBeLessThan(60_000);
    const scopes = answer.body.referenceScopes.counts as Array<{
      id: string;
      nodes: Array<{ id: string; label: string; children: unknown[]; childCount?: number }>;
      rootCount?: number;
    }>;
    const site = scopes.find((s) => s.id === 'site')!;
    expect(site.rootCount).toBe(SITES);
    expect(site.nodes).toHaveLength(SCOPE_NODES_PAGE);
    expect(site.nodes[0]).toMatchObject({ id: 'projectsKalps.sitesKlac_blanc', label: 'Lac Blanc', childCount: 0 });
    const zone = scopes.find((s) => s.id === 'zone')!;
    expect(zone.rootCount).toBe(ZONE_ROOTS + 1);
    expect(zone.nodes.map((n) => [n.label, n.childCount, n.children.length])).toEqual([
      ['Nord', 0, 0],
      ['Région 1', ZONES_PER_ROOT, 0],
      ['Région 2', ZONES_PER_ROOT, 0],
      ['Région 3', ZONES_PER_ROOT, 0],
    ]);
  });
});

describe('/scopeNodes', () => {
  const nodes = (query: Record<string, string | number>) =>
    `${APP}/scopeNodes/sites?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;

  it('pages through every child of one project, each exactly once, reading a page at a time', async () => {
    const seen = new Set<string>();
    let total = -1;
    let after: string | undefined;
    for (let pages = 0; total < 0 || seen.size < total; pages++) {
      expect(pages).toBeLessThan(200);
      const page = await read(reader, nodes({ use: 'request', parent: 'projectsKjura', ...(after ? { after } : {}) }));
      expect(page.status, page.text).toBe(200);
      // The page, and the caller's session and rights.
      expect(page.rows).toBeLessThanOrEqual(SCOPE_NODES_PAGE + 10);
      const body = page.body as ScopeNodesPage;
      // The level's size comes with its first page only.
      if (after === undefined) total = body.total!;
      else expect(body.total).toBeUndefined();
      expect(body.nodes.length).toBeGreaterThan(0);
      for (const node of body.nodes) {
        expect(node.id.startsWith('projectsKjura.sitesK')).toBe(true);
        expect(seen.has(node.id)).toBe(false);
        seen.add(node.id);
      }
      after = body.nodes.at(-1)!.id;
    }
    // Sites 1, 4, 7, … lie under the Jura (the seed's i % 3 = 1).
    expect(total).toBe(Math.ceil((SITES - 1) / 3));
    expect(seen.size).toBe(total);
    const past = (await read(reader, nodes({ use: 'request', parent: 'projectsKjura', after: after! }))).body;
    expect((past as ScopeNodesPage).nodes).toEqual([]);
  }, 120_000);

  it('still pages by offset, as older clients ask, the same nodes as after the previous page', async () => {
    const byOffset = (await read(reader, nodes({ use: 'request', offset: 200 }))).body as ScopeNodesPage;
    const before = (await read(reader, nodes({ use: 'request', offset: 100 }))).body as ScopeNodesPage;
    const byKey = (await read(reader, nodes({ use: 'request', after: before.nodes.at(-1)!.id })))
      .body as ScopeNodesPage;
    expect(byKey.nodes.map((n) => n.id)).toEqual(byOffset.nodes.map((n) => n.id));
    expect(byOffset.total).toBe(SITES);
  });

  it('enters the index where the previous page ended: a deep page reads its own rows only', async () => {
    // What the database read for the page's statement (EXPLAIN ANALYZE), not only what it gave.
    const scanned = async (path: string) => {
      // The statements reading the level in the index's order: its page and, from its beginning, its count. (Each
      // node's children are counted apart, by a walk of its children: see below.)
      const [answer, rows] = await rowsScanned(
        db(),
        () => data.admin.get(path),
        (text) => text.includes('using ~<~') && !text.includes(CHILD_WALK),
      );
      expect(answer.status, answer.text).toBe(200);
      return { body: answer.body as ScopeNodesPage, rows };
    };
    const deep = await scanned(nodes({ use: 'grant', parent: 'projectsKjura', after: 'projectsKjura.sitesKs49000' }));
    expect(deep.body.nodes[0].id).toBe('projectsKjura.sitesKs49003');
    expect(deep.body.nodes).toHaveLength(SCOPE_NODES_PAGE);
    // An offset, still accepted, reads every node it skips: the Jura's sites and the others around them.
    const byOffset = await scanned(nodes({ use: 'grant', parent: 'projectsKjura', offset: 16_300 }));
    if (process.env.SCOPE_TREE_FIGURES) console.log('deep page', { after: deep.rows, offset: byOffset.rows });
    expect(deep.rows).toBeLessThanOrEqual(SCOPE_NODES_PAGE + 5);
    expect(byOffset.rows).toBeGreaterThan(16_300);
    // A recursive reference's first level: the regions, not the thousand sectors between two of them.
    for (const path of [
      `${APP}/scopeNodes/zones?use=grant&limit=2&after=zonesKr1`,
      `${APP}/scopeNodes/zones?use=grant&limit=2&offset=1`,
      `${APP}/scopeNodes/zones?use=grant&parent=zonesKr2&after=zonesKr2.zonesKr2_500`,
    ]) {
      const level = await scanned(path);
      if (process.env.SCOPE_TREE_FIGURES) console.log(path, { rows: level.rows });
      // Each node of the page twice (its step of the walk, its row), and a walk of the regions for the first level's
      // count: never the sectors between them.
      expect(level.rows, path).toBeLessThanOrEqual(level.body.nodes.length * 2 + 2 * (ZONE_ROOTS + 2));
    }
  });

  it("counts each node's children without reading what lies below them", async () => {
    const counted = async (path: string) => {
      const [answer, rows] = await rowsScanned(db(), () => data.admin.get(path), CHILD_WALK);
      expect(answer.status, answer.text).toBe(200);
      return { nodes: (answer.body as ScopeNodesPage).nodes, rows };
    };
    // The regions: their sectors are counted, not the parcels under the last region's sectors.
    const regions = await counted(`${APP}/scopeNodes/zones?use=grant`);
    expect(regions.nodes.map((n) => [n.id, n.childCount])).toEqual([
      ['zonesKnord', 0],
      ['zonesKr1', ZONES_PER_ROOT],
      ['zonesKr2', ZONES_PER_ROOT],
      ['zonesKr3', ZONES_PER_ROOT],
    ]);
    // One step of the walk per child and one past the last: the subtrees' own rows are stepped over. (EXPLAIN
    // gives a loop's rows as a rounded mean, hence the margin.)
    const walked = (children: number, nodes: number) => Math.ceil(1.05 * children) + 10 * nodes;
    expect(regions.rows).toBeLessThanOrEqual(walked(ZONE_ROOTS * ZONES_PER_ROOT, regions.nodes.length));
    // A page of the last region's sectors from the first with parcels: each counts its own parcels (what its count
    // needs), a sector without any reads one key.
    const sectors = await counted(
      `${APP}/scopeNodes/zones?use=grant&parent=zonesKr${ZONE_ROOTS}&after=zonesKr${ZONE_ROOTS}.zonesKr${ZONE_ROOTS}_499`,
    );
    expect(sectors.nodes).toHaveLength(SCOPE_NODES_PAGE);
    const withParcels = (id: string) => {
      const sector = Number(id.split('_').at(-1));
      return sector >= PARCEL_SECTORS[0] && sector <= PARCEL_SECTORS[1];
    };
    for (const node of sectors.nodes)
      expect(node.childCount, node.id).toBe(withParcels(node.id) ? PARCELS_PER_SECTOR : 0);
    const parcels = sectors.nodes.reduce((sum, n) => sum + n.childCount, 0);
    expect(parcels).toBeGreaterThan(0);
    expect(sectors.rows).toBeLessThanOrEqual(walked(parcels, sectors.nodes.length));
    // The search's nodes are counted the same way.
    const found = await counted(`${APP}/scopeNodes/zones?use=grant&q=${encodeURIComponent('région 3')}`);
    expect(found.nodes[0]).toMatchObject({ id: 'zonesKr3', childCount: ZONES_PER_ROOT });
    if (process.env.SCOPE_TREE_FIGURES)
      console.log('child counts', { regions: regions.rows, sectors: sectors.rows, parcels, search: found.rows });
  });

  it('pages the first level and the children of a recursive reference', async () => {
    const first = await read(data.admin, `${APP}/scopeNodes/zones?use=grant&limit=2&offset=1`);
    expect(first.status, first.text).toBe(200);
    expect((first.body as ScopeNodesPage).total).toBe(ZONE_ROOTS + 1);
    expect((first.body as ScopeNodesPage).nodes.map((n) => [n.id, n.childCount])).toEqual([
      ['zonesKr1', ZONES_PER_ROOT],
      ['zonesKr2', ZONES_PER_ROOT],
    ]);
    // After a region, the next region: its thousand sectors, which lie between them in the index, are not read.
    const next = await read(data.admin, `${APP}/scopeNodes/zones?use=grant&limit=2&after=zonesKr1`);
    expect((next.body as ScopeNodesPage).nodes.map((n) => n.id)).toEqual(['zonesKr2', 'zonesKr3']);
    expect(next.rows).toBeLessThan(20);
    const seen = new Set<string>();
    let after = '';
    for (let pages = 0; seen.size < ZONES_PER_ROOT; pages++) {
      expect(pages).toBeLessThan(20);
      const page = await read(
        data.admin,
        `${APP}/scopeNodes/zones?use=grant&parent=zonesKr2${after ? `&after=${after}` : ''}`,
      );
      expect(page.status, page.text).toBe(200);
      const body = page.body as ScopeNodesPage;
      expect(body.total).toBe(after ? undefined : ZONES_PER_ROOT);
      for (const node of body.nodes) seen.add(node.id);
      after = body.nodes.at(-1)!.id;
    }
    expect(seen.size).toBe(ZONES_PER_ROOT);
    expect([...seen].every((id) => /^zonesKr2\.zonesKr2_\d+$/.test(id))).toBe(true);
  });

  it('finds one site among 50,000 by label or code, with the labels above it', async () => {
    for (const q of ['site 12345', 'S12345']) {
      const found = await read(reader, nodes({ use: 'request', q }));
      expect(found.status, found.text).toBe(200);
      expect(found.rows).toBeLessThan(250);
      const body = found.body as ScopeNodesPage;
      expect(body.nodes[0]).toMatchObject({
        id: 'projectsKalps.sitesKs12345',
        naturalKey: 's12345',
        label: 'Site 12345',
        path: ['Alpes'],
      });
    }
    const many = await read(reader, nodes({ use: 'request', q: 'site 1' }));
    expect((many.body as ScopeNodesPage).nodes).toHaveLength(20);
    expect((many.body as ScopeNodesPage).more).toBe(true);
    expect(many.rows).toBeLessThan(250);
    const zone = await read(data.admin, `${APP}/scopeNodes/zones?use=grant&q=${encodeURIComponent('secteur 2-17')}`);
    expect((zone.body as ScopeNodesPage).nodes[0]).toMatchObject({ id: 'zonesKr2.zonesKr2_17', path: ['Région 2'] });
  });

  it('finds a node by words of the rows above it too, reading a bounded number of rows', async () => {
    // Sites 49991, 49994 and 49997 lie under the Pyrénées (i % 3 = 2); 4999 and 49990 under the Jura.
    const found = await read(reader, nodes({ use: 'request', q: 'pyr 4999' }));
    expect(found.status, found.text).toBe(200);
    if (process.env.SCOPE_TREE_FIGURES) console.log('pyr 4999', { rows: found.rows });
    expect(found.rows).toBeLessThan(250);
    const body = found.body as ScopeNodesPage;
    expect(body.nodes.map((n) => [n.naturalKey, n.path])).toEqual([
      ['s49991', ['Pyrénées']],
      ['s49994', ['Pyrénées']],
      ['s49997', ['Pyrénées']],
    ]);
    // A word of the project and a code: the site's own code, under the project named.
    const byCode = (await read(reader, nodes({ use: 'request', q: 'jura s04999' }))).body as ScopeNodesPage;
    expect(byCode.nodes.map((n) => n.naturalKey)).toEqual(['s04999']);
    // Every word must be found, above or in the row: the Alps hold none of these.
    const none = (await read(reader, nodes({ use: 'request', q: 'alpes 49991' }))).body as ScopeNodesPage;
    expect(none.nodes).toEqual([]);
    // A common word above (every project's code begins with a letter of none of these) and a rare one below.
    const common = await read(reader, nodes({ use: 'request', q: 'site pyrenees 4999' }));
    expect((common.body as ScopeNodesPage).nodes.map((n) => n.naturalKey)).toEqual(['s49991', 's49994', 's49997']);
    expect(common.rows).toBeLessThan(250);
    // In the database too, by the indexes: the words' own matches and the ranges under the rows above.
    for (const q of ['pyr 4999', 'site pyrenees 4999', 'jura s04999']) {
      const [answer, scanned] = await rowsScanned(db(), () => reader.get(nodes({ use: 'request', q })), 'to_tsquery');
      expect(answer.status).toBe(200);
      if (process.env.SCOPE_TREE_FIGURES) console.log(q, { scanned });
      expect(scanned, q).toBeLessThan(100);
    }
  });

  it('finds a node of a recursive reference by the labels of the nodes above it, many of them naming a word', async () => {
    const zones = (q: string) => read(data.admin, `${APP}/scopeNodes/zones?use=grant&q=${encodeURIComponent(q)}`);
    const found = await zones('région 2 secteur 2-17');
    expect(found.status, found.text).toBe(200);
    // Words are beginnings: 17 begins 170 to 179 too.
    const ids = (found.body as ScopeNodesPage).nodes.map((n) => n.id);
    expect(ids[0]).toBe('zonesKr2.zonesKr2_17');
    expect(ids).toHaveLength(11);
    expect(ids.every((id) => id.startsWith('zonesKr2.zonesKr2_17'))).toBe(true);
    // "1" begins a word of more than a hundred zones (Région 1, Secteur 1-…, …-1…): looked for above each candidate.
    const many = await zones('1 secteur 3-999');
    expect(many.status, many.text).toBe(200);
    expect((many.body as ScopeNodesPage).nodes.map((n) => n.id)).toEqual([]);
    const under = await zones('région 1 secteur 999');
    expect((under.body as ScopeNodesPage).nodes.map((n) => n.id)).toEqual(['zonesKr1.zonesKr1_999']);
    if (process.env.SCOPE_TREE_FIGURES) console.log('zones', { found: found.rows, many: many.rows, under: under.rows });
    for (const answer of [found, many, under]) expect(answer.rows).toBeLessThan(250);
    for (const q of ['région 2 secteur 2-17', '1 secteur 3-999', 'région 1 secteur 999']) {
      const [answer, scanned] = await rowsScanned(
        db(),
        () => data.admin.get(`${APP}/scopeNodes/zones?use=grant&q=${encodeURIComponent(q)}`),
        'to_tsquery',
      );
      expect(answer.status).toBe(200);
      if (process.env.SCOPE_TREE_FIGURES) console.log(q, { scanned });
      // The words' matches, the zones above each candidate: not the 3,003 zones.
      expect(scanned, q).toBeLessThan(500);
    }
  });

  it('refuses malformed parameters with 400 BAD_REQUEST', async () => {
    for (const query of [
      { parent: 'projectsKjura' } as Record<string, string | number>,
      { use: 'everything' },
      { use: 'request', parent: "x' or 1=1" },
      { use: 'request', parent: 'a..b' },
      { use: 'request', after: "x' or 1=1" },
      { use: 'request', after: '' },
      { use: 'request', after: 'a/b' },
      { use: 'request', offset: -1 },
      { use: 'request', offset: 'many' },
      { use: 'request', limit: 0 },
      { use: 'request', limit: SCOPE_NODES_PAGE + 1 },
      { use: 'request', q: '' },
      { use: 'request', q: 'x'.repeat(201) },
    ]) {
      const refused = await reader.get(nodes(query));
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect(refused.body.code).toBe('BAD_REQUEST');
    }
    const unknown = await reader.get(`${APP}/scopeNodes/counts?use=request`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NO_SUCH_REFERENCE');
    const notScoping = await reader.get(`${APP}/scopeNodes/projects?use=request`);
    expect(notScoping.status).toBe(404);
  });

  it('applies the read rule of the answer it complements', async () => {
    const anonymous = await api(data.server).get(nodes({ use: 'request' }));
    expect(anonymous.status).toBe(401);
    const grant = await reader.get(nodes({ use: 'grant' }));
    expect(grant.status).toBe(403);
    expect(grant.body.code).toBe('NO_RIGHT_FOR_SET_RIGHTS_APPLICATION');
    expect((await reader.get(`${APP}/grantable`)).status).toBe(403);
    const files = await reader.get(nodes({ use: 'files' }));
    expect(files.status).toBe(403);
    expect((await reader.get(`${APP}/additionalFiles?grantable=true`)).status).toBe(403);
    expect((await reader.get(nodes({ use: 'request' }))).status).toBe(200);
    expect((await data.admin.get(nodes({ use: 'grant' }))).status).toBe(200);
    expect((await data.admin.get(nodes({ use: 'files' }))).status).toBe(200);
  });

  it('grants a right on one site found by search, by its hierarchical key', async () => {
    const found = (await read(data.admin, nodes({ use: 'grant', q: 'site 777' }))).body as ScopeNodesPage;
    const site = found.nodes.find((n) => n.naturalKey === 's00777')!;
    const saved = await data.admin.post(`${APP}/authorization`, {
      json: {
        name: 'Un site',
        usersId: ['_public_'],
        authorizationsWithRestriction: {
          counts: { operationTypes: ['extraction'], requiredAuthorizations: { site: [site.id] } },
        },
      },
    });
    expect(saved.status, saved.text).toBeLessThan(300);
    const listed = await data.admin.get(`${APP}/authorization`);
    expect(listed.text).toContain(site.id);
  });
});
