/**
 * The list of rights requests at real size: thousands of requests stored straight in the database as the form
 * stores them, each naming an institute of a reference larger than the form's choices and a site to read. What is
 * counted is the work over HTTP (statements, rows brought back, rows the database read), not its time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RightsRequestListSchema } from '../../src/contract/rightsRequests.ts';
import { answerMismatch } from '../../server/http/answerCheck.ts';
import { createApplication, csvForm, startDataServer, type DataServer } from './dataFixtures.ts';
import { rowsScanned, statementsOf } from './statementsRead.ts';

const REQUESTS = 14_000;
/** Past the rows after which a load refreshes the planner's statistics, as a large reference is. */
const INSTITUTES = 12_000;

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const file = (name: string) => new Uint8Array(readFileSync(path.join(fixtures, name)));
const APP = '/applications/surveys';

let data: DataServer;
const db = () => data.server.server.ctx.db;

function institutesCsv(): string {
  const lines = ['code;label'];
  for (let i = 0; i < INSTITUTES; i++) lines.push(`i${String(i).padStart(5, '0')};Institut ${i}`);
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'surveys', file('configurations/surveys-requests.yaml'), 'surveys.yaml');
  for (const [reference, csv] of [
    ['institutes', institutesCsv()],
    ['projects', file('csv/surveys-projects.csv')],
    ['sites', file('csv/surveys-sites.csv')],
    ['species', file('csv/surveys-species.csv')],
  ] as const) {
    const loaded = await data.admin.post(`${APP}/references/${reference}`, { body: csvForm(`${reference}.csv`, csv) });
    expect(loaded.status, loaded.text).toBe(201);
  }
  const application = await db()
    .selectFrom('applications')
    .select('id')
    .where('name', '=', 'surveys')
    .executeTakeFirstOrThrow();
  const root = await db().selectFrom('users').select('id').where('login', '=', 'root').executeTakeFirstOrThrow();
  // Each institute named by a request or two; a code, a code in capitals or a label, as people type them.
  await sql`
    insert into rights_requests (id, application_id, user_id, comment, fields, rules, created_at, updated_at)
    select gen_random_uuid(), ${application.id}, ${root.id}, 'request ' || i,
           jsonb_build_object('institute', 'i' || lpad((i % ${INSTITUTES}::int)::text, 5, '0'),
                              'purpose', 'A thesis ' || i, 'orcid', '0000-0002-1825-0097', 'until', '31/12/2025'),
           jsonb_build_object('forAll', '{}'::jsonb, 'restricted', jsonb_build_object('counts', jsonb_build_array(
             jsonb_build_object('operations', jsonb_build_array('extraction'), 'from', null, 'to', null,
               'scopes', jsonb_build_object('site', jsonb_build_array('projectsKalps.sitesKlac_blanc')))))),
           timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute',
           timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute'
    from generate_series(1, ${REQUESTS}::int) i`.execute(db());
}, 300_000);
afterAll(() => data?.server.close());

const listOf = (params?: object) =>
  data.admin.get(`${APP}/rightsRequest${params ? `?params=${encodeURIComponent(JSON.stringify(params))}` : ''}`);

describe('the list of rights requests at real size', () => {
  it('is written a page of requests at a time, each value labelled once, the answer the pages give', async () => {
    const started = Date.now();
    const [whole, statements, rowsRead, largest] = await statementsOf(db(), () => listOf(), 'data_rows');
    const took = Date.now() - started;
    expect(whole.status, whole.text).toBe(200);
    expect(answerMismatch(RightsRequestListSchema, whole.body)).toBeNull();
    expect(whole.body.total).toBe(REQUESTS);
    expect(whole.body.rightsRequests).toHaveLength(REQUESTS);
    const labels = whole.body.valueLabels.institute as Array<{ naturalKey: string; label: string }>;
    expect(labels).toHaveLength(INSTITUTES);
    expect(labels.find((l) => l.naturalKey === 'i00042')).toEqual({ naturalKey: 'i00042', label: 'Institut 42' });
    // The same answer as one page holding every request, built whole.
    const paged = await listOf({ limit: REQUESTS });
    expect(whole.body).toEqual(paged.body);
    const skipped = await listOf({ offset: 1_500 });
    expect(skipped.body).toEqual((await listOf({ offset: 1_500, limit: REQUESTS })).body);
    expect(skipped.body.rightsRequests[0].id).toBe(whole.body.rightsRequests[1_500].id);
    const [, , requestsRead, largestPage] = await statementsOf(db(), () => listOf(), 'rights_requests');
    const [, scanned] = await rowsScanned(db(), () => listOf(), 'data_rows');
    const [page, , pageRows] = await statementsOf(db(), () => listOf({ limit: 50 }), 'data_rows');
    const [, pageScanned] = await rowsScanned(db(), () => listOf({ limit: 50 }), 'data_rows');
    expect(page.status).toBe(200);
    expect(page.body.rightsRequests).toHaveLength(50);
    expect(page.body.valueLabels.institute).toHaveLength(50);
    if (process.env.REQUEST_FIGURES)
      console.log('rights requests', {
        whole: { statements, rowsRead, largest, scanned, requestsRead, largestPage, bytes: whole.text.length, took },
        page: { rowsRead: pageRows, scanned: pageScanned },
      });
    // Each institute named once, in one look-up after the last page. Looked up by each column's index, a list of
    // every value reads the reference once per column (each page's values, a page at a time, read it whole each).
    expect(rowsRead).toBeLessThanOrEqual(INSTITUTES);
    expect(scanned).toBeLessThanOrEqual(2 * INSTITUTES + 20);
    // The requests a page at a time. Before, all of them in one statement, the answer built whole.
    expect(requestsRead).toBeLessThanOrEqual(REQUESTS);
    expect(largestPage).toBeLessThanOrEqual(1_000);
    expect(statements).toBeLessThan(REQUESTS / 1_000 + 15);
    // A page labels its own values only, by the keys' indexes: an `or` of both columns read every institute on
    // PostgreSQL.
    expect(pageRows).toBeLessThanOrEqual(50);
    expect(pageScanned).toBeLessThanOrEqual(50 + 10);
  }, 300_000);
});
