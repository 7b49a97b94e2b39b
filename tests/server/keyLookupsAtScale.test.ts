/**
 * Rows of a large reference looked up by the keys values name, either as hierarchical or as natural keys: the rows
 * a form's reference field may designate when it is saved (`formReferenceRows`), and those a page of an export names
 * (`exportRowTexts`). Asked of the planner at a size above which an export reads the reference a page at a time,
 * after ANALYZE, on both engines: each look-up walks the keys' indexes, never the whole reference.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCount } from '../../server/services/dataRows.ts';
import { createApplication, csvForm, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';
import { plansOf, rowsScanned, type PlannedScan } from './statementsRead.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: visits
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Visites, en: Visits}
OA_rightsRequest:
  OA_i18n:
    OA_title: {fr: Demande, en: Request}
  OA_formFields:
    institute:
      OA_i18n:
        OA_title: {fr: Institut, en: Institute}
      OA_required: true
      OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: institutes}}}
OA_data:
  institutes:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      label: null
  visits:
    OA_tags: [__DATA__]
    OA_naturalKey: [institute, day]
    OA_basicComponents:
      institute:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: institutes}}}
      day:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy}}
`;

/**
 * Above the size from which an export reads a reference a page at a time, and where the keys a page's spellings
 * give (five for each row named) are few beside the reference's rows.
 */
const INSTITUTES = 30_000;
/** Institutes visited: an export names these. */
const VISITED = 40;
const APP = '/applications/visits';

let data: DataServer;
const db = () => data.server.server.ctx.db;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'visits', YAML);
  const loaded = await uploadReference(data.admin, 'visits', 'institutes', 'institutes.csv', 'code;label\ninst_a;A\n');
  expect(loaded.status, loaded.text).toBe(201);
  const { id } = await db()
    .selectFrom('applications')
    .select('id')
    .where('name', '=', 'visits')
    .executeTakeFirstOrThrow();
  // Written straight into the table: a file of 21,000 rows would only slow the test down.
  const institutes = Array.from({ length: INSTITUTES }, (_, i) => ({
    id: randomUUID(),
    application_id: id,
    data_name: 'institutes',
    natural_key: `inst_${i}`,
    hierarchical_key: `institutesKinst_${i}`,
    values: JSON.stringify({ code: `inst_${i}`, label: `Institute ${i}` }),
  }));
  for (let start = 0; start < institutes.length; start += 1_000)
    await db()
      .insertInto('data_rows')
      .values(institutes.slice(start, start + 1_000))
      .execute();
  await refreshCount(db(), id, 'institutes');
  const visits = Array.from({ length: VISITED }, (_, i) => `inst_${i * 500};01/06/2024`);
  const written = await data.admin.post(`${APP}/data/visits`, {
    body: csvForm('visits.csv', `institute;day\n${visits.join('\n')}\n`),
  });
  expect(written.status, written.text).toBe(201);
  await sql`analyze data_rows`.execute(db());
}, 300_000);
afterAll(() => data?.server.close());

/** The look-ups of rows by either key, as sent (not as rowsScanned runs them again under EXPLAIN ANALYZE). */
const byEitherKey = (statement: string) =>
  statement.includes('"hierarchical_key" = any(') || statement.includes('hierarchical_key = any(')
    ? !statement.startsWith('explain')
    : false;

const wholeTables = (plans: PlannedScan[][]) =>
  plans.flatMap((plan) => plan.flatMap((scan) => (scan.node === 'Seq Scan' ? [scan.table] : [])));

describe('rows of a large reference looked up by either key', () => {
  it('for an export, a page of rows at a time', async () => {
    const [[answer, scanned], plans] = await plansOf(
      db(),
      () => rowsScanned(db(), () => data.admin.get(`${APP}/data/visits/csv`), byEitherKey),
      byEitherKey,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text.trim().split('\n')).toHaveLength(VISITED + 1);
    expect(plans.length).toBeGreaterThan(0);
    expect(wholeTables(plans)).toEqual([]);
    // The rows named, then those their spellings may name, each found by either key: not the 30,000 institutes.
    expect(scanned).toBeLessThanOrEqual(4 * VISITED);
  });

  it('for a form saved', async () => {
    const ask = (institute: string) =>
      data.admin.post(`${APP}/rightsRequest`, {
        json: {
          fields: { institute },
          rightsRequest: { authorizationForAll: { visits: ['extraction'] } },
          comment: 'For a thesis',
        },
      });
    const [[asked, scanned], plans] = await plansOf(
      db(),
      () => rowsScanned(db(), () => ask('Inst_19999'), byEitherKey),
      byEitherKey,
    );
    expect(asked.status, asked.text).toBe(201);
    expect(plans.length).toBeGreaterThan(0);
    expect(wholeTables(plans)).toEqual([]);
    expect(scanned).toBeLessThanOrEqual(10);
  });
});
