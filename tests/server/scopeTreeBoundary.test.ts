import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPE_NODES_PAGE, SCOPE_TREE_WHOLE_MAX } from '../../src/contract/authorizations.ts';
import { refreshCount } from '../../server/services/dataRows.ts';
import { createApplication, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';

/**
 * The boundary of a whole scope tree (scopeTrees.ts): a reference of exactly `SCOPE_TREE_WHOLE_MAX` (2,000) rows is
 * sent whole, every node with its children; one row more and the answers carry the first page of its first level
 * with each node's child count (the rest through /scopeNodes, scopeTreesAtScale.test.ts). A recursive reference of
 * 20 regions of 99 sectors each, seeded straight in the database as an upload stores it.
 */
const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: boundary
  OA_version: 1.0.0
  OA_defaultLanguage: fr
  OA_i18n:
    OA_title: {fr: Limite, en: Boundary}
OA_rightsRequest:
  OA_i18n:
    OA_title: {fr: Demande, en: Request}
  OA_formFields:
    motive:
      OA_i18n:
        OA_title: {fr: Motif, en: Motive}
OA_data:
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
    OA_naturalKey: [zone, day]
    OA_basicComponents:
      zone:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
    OA_authorizations:
      OA_authorizationScope: [zone]
      OA_timeScope: day
`;
const APP = '/applications/boundary';
const ROOTS = 20;
const CHILDREN = SCOPE_TREE_WHOLE_MAX / ROOTS - 1;

let data: DataServer;
let applicationId: string;
const db = () => data.server.server.ctx.db;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'boundary', YAML);
  applicationId = (
    await db().selectFrom('applications').select('id').where('name', '=', 'boundary').executeTakeFirstOrThrow()
  ).id;
  const loaded = await uploadReference(data.admin, 'boundary', 'zones', 'z.csv', 'code;label;parent\nr1;Région 1;\n');
  expect(loaded.status, loaded.text).toBe(201);
  const uploaded = await db()
    .selectFrom('data_rows')
    .select(['hierarchical_key', 'values'])
    .where('application_id', '=', applicationId)
    .executeTakeFirstOrThrow();
  expect(uploaded).toEqual({ hierarchical_key: 'zonesKr1', values: { code: 'r1', label: 'Région 1', parent: '' } });
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'zones', key, hkey, jsonb_build_object('code', key, 'label', label, 'parent', parent), '{}', n
    from (
      select 'r' || r as key, 'zonesKr' || r as hkey, 'Région ' || r as label, '' as parent, r as n
      from generate_series(2, ${ROOTS}) r
      union all
      select 'r' || r || '_' || c, 'zonesKr' || r || '.zonesKr' || r || '_' || c, 'Secteur ' || r || '-' || c, 'r' || r, 100 + r * 1000 + c
      from generate_series(1, ${ROOTS}) r, generate_series(1, ${CHILDREN}) c
    ) z`.execute(db());
  await refreshCount(db(), applicationId, 'zones');
}, 120_000);
afterAll(() => data?.server.close());

type Node = { id: string; label: string; children: Node[]; childCount?: number };
type Tree = { id: string; nodes: Node[]; rootCount?: number };

const zoneTrees = async () =>
  Promise.all(
    [`${APP}/grantable`, `${APP}/rightsRequest/options`].map(async (path) => {
      const answer = await data.admin.get(path, { headers: { 'Accept-Language': 'fr' } });
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      return (answer.body.referenceScopes.counts as Tree[]).find((tree) => tree.id === 'zone')!;
    }),
  );
const count = (nodes: Node[]): number => nodes.reduce((sum, node) => sum + 1 + count(node.children), 0);

describe('a scope tree at its whole-tree limit and one row past it', () => {
  it(`sends a tree of exactly ${SCOPE_TREE_WHOLE_MAX} rows whole`, async () => {
    for (const tree of await zoneTrees()) {
      expect(tree.rootCount).toBeUndefined();
      expect(tree.nodes).toHaveLength(ROOTS);
      expect(tree.nodes.every((node) => node.children.length === CHILDREN)).toBe(true);
      expect(count(tree.nodes)).toBe(SCOPE_TREE_WHOLE_MAX);
    }
  });

  it(`sends the first level of a tree of ${SCOPE_TREE_WHOLE_MAX + 1} rows with its nodes’ child counts`, async () => {
    await sql`
      insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
      values (gen_random_uuid(), ${applicationId}, 'zones', 'r1_x', 'zonesKr1.zonesKr1_x',
              ${JSON.stringify({ code: 'r1_x', label: 'Secteur 1-x', parent: 'r1' })}::jsonb, '{}', 999999)`.execute(
      db(),
    );
    await refreshCount(db(), applicationId, 'zones');
    for (const tree of await zoneTrees()) {
      expect(tree.rootCount).toBe(ROOTS);
      expect(tree.nodes).toHaveLength(Math.min(ROOTS, SCOPE_NODES_PAGE));
      expect(tree.nodes.every((node) => node.children.length === 0)).toBe(true);
      const childCounts = Object.fromEntries(tree.nodes.map((node) => [node.id, node.childCount]));
      expect(childCounts.zonesKr1).toBe(CHILDREN + 1);
      expect(childCounts.zonesKr2).toBe(CHILDREN);
    }
    // The level past the first page, through /scopeNodes: every sector of the first region, once.
    const children = await data.admin.get(`${APP}/scopeNodes/zones?use=grant&parent=zonesKr1`);
    expect(children.status, children.text.slice(0, 300)).toBe(200);
    expect(children.body.total).toBe(CHILDREN + 1);
  });
});
