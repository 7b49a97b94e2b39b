import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCount } from '../../server/services/dataRows.ts';
import { createObservatory, type DataServer, q, startDataServer } from './dataFixtures.ts';

/**
 * Filtered and sorted pages past `MAX_KEPT_MATCHES` (rowQueries.ts, 20,000): up to it the ids of every matching row
 * are kept and pages are cut from them; past it each page is read by offset and the total counted. Either way a
 * page and its total must be the rows an unpaged export gives, in the same order. 20,500 stations are seeded
 * straight in the database (as an upload stores them) beside the six uploaded, with altitudes repeated so that the
 * order falls back on the natural key, one in twenty empty and one in twenty absent (a row stored before the column
 * existed): the absent ones come last in either direction, over the 20,000th row.
 */
const APP = '/applications/observatory';
const SEEDED = 20_500;
const UPLOADED = 6;
const TOTAL = SEEDED + UPLOADED;
const PAGE = 1_000;

let data: DataServer;
const db = () => data.server.server.ctx.db;

beforeAll(async () => {
  data = await startDataServer();
  await createObservatory(data.admin);
  const applicationId = (
    await db().selectFrom('applications').select('id').where('name', '=', 'observatory').executeTakeFirstOrThrow()
  ).id;
  const model = await db()
    .selectFrom('data_rows')
    .select(['hierarchical_key', 'values', 'refs'])
    .where('application_id', '=', applicationId)
    .where('data_name', '=', 'stations')
    .where('natural_key', '=', 'leman')
    .executeTakeFirstOrThrow();
  expect(model.hierarchical_key).toBe('stationsKleman');
  expect(model.values.altitude).toBe(372);
  // An empty cell is stored as an empty text: Vallot has no depth.
  const vallot = await db()
    .selectFrom('data_rows')
    .select('values')
    .where('application_id', '=', applicationId)
    .where('natural_key', '=', 'vallot')
    .executeTakeFirstOrThrow();
  expect(vallot.values.depth).toBe('');
  await sql`
    insert into data_rows (id, application_id, data_name, natural_key, hierarchical_key, values, refs, line_number)
    select gen_random_uuid(), ${applicationId}, 'stations', 'st' || lpad(i::text, 5, '0'), 'stationsKst' || lpad(i::text, 5, '0'),
           (${JSON.stringify(model.values)}::jsonb || jsonb_build_object('code', 'st' || lpad(i::text, 5, '0'), 'label', 'Station ' || i,
             'altitude', case when i % 20 = 0 then to_jsonb(''::text) else to_jsonb((i * 7919) % 997) end))
             - case when i % 20 = 10 then 'altitude' else '' end,
           ${model.refs}::text[], 100 + i
    from generate_series(1, ${SEEDED}) i`.execute(db());
  await refreshCount(db(), applicationId, 'stations');
}, 120_000);
afterAll(() => data?.server.close());

type Row = { naturalKey: string; altitude: unknown };
type Page = { referenceValues: Row[]; totalRows: number };

const read = async (query: object) => {
  const answer = await data.admin.get(`${APP}/references/stations/json${q(query)}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Page;
};
const keys = (rows: Row[]) => rows.map((row) => row.naturalKey);

describe.each([
  [
    'filtered (every row matches) and sorted',
    {
      componentFilters: [{ componentKey: 'code', intervalValues: { from: 'a', to: 'zz' } }],
      componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }],
    },
  ],
  ['sorted only', { componentOrderBy: [{ componentKey: 'altitude', order: 'ASC' }] }],
  ['filtered only', { componentFilters: [{ componentKey: 'code', intervalValues: { from: 'a', to: 'zz' } }] }],
])('past the kept matches, %s', (_, query) => {
  it(`gives the pages at 0, 19,990 and 20,000 and the total of an unpaged export of ${TOTAL} rows`, async () => {
    const exported = await read(query);
    expect(exported.totalRows).toBe(TOTAL);
    expect(exported.referenceValues).toHaveLength(TOTAL);
    expect(new Set(keys(exported.referenceValues)).size).toBe(TOTAL);
    // Sorted, the rows without an altitude come last, the 20,000th among them.
    if ('componentOrderBy' in query)
      expect(Number(exported.referenceValues[20_000].naturalKey.slice(2)) % 20, 'an absent altitude').toBe(10);
    for (const offset of [0, 19_990, 20_000]) {
      const page = await read({ ...query, offset, limit: PAGE });
      expect(page.totalRows, `total at ${offset}`).toBe(TOTAL);
      expect(keys(page.referenceValues), `page at ${offset}`).toEqual(
        keys(exported.referenceValues.slice(offset, offset + PAGE)),
      );
    }
    // The last page, cut by the end of the rows.
    const last = await read({ ...query, offset: TOTAL - 6, limit: PAGE });
    expect(keys(last.referenceValues)).toEqual(keys(exported.referenceValues.slice(TOTAL - 6)));
  }, 60_000);
});

describe('a filter matching exactly the kept matches, and one more', () => {
  it.each([
    ['st20000', 20_000],
    ['st20001', 20_001],
  ])(
    'codes up to %s: %i rows, kept or read by offset, give the export’s pages',
    async (to, matching) => {
      const query = {
        componentFilters: [{ componentKey: 'code', intervalValues: { from: 'st00001', to } }],
        componentOrderBy: [{ componentKey: 'altitude', order: 'DESC' }],
      };
      const exported = await read(query);
      expect(exported.totalRows).toBe(matching);
      for (const offset of [0, 19_990, 20_000]) {
        const page = await read({ ...query, offset, limit: PAGE });
        expect(page.totalRows, `total at ${offset}`).toBe(matching);
        expect(keys(page.referenceValues), `page at ${offset}`).toEqual(
          keys(exported.referenceValues.slice(offset, offset + PAGE)),
        );
      }
    },
    60_000,
  );
});

describe('the page size', () => {
  it('refuses a page of more than 1,000 rows, and gives one of 1,000', async () => {
    const refused = await data.admin.get(`${APP}/references/stations/json${q({ offset: 0, limit: PAGE + 1 })}`);
    expect(refused.status, refused.text).toBe(400);
    const page = await read({ offset: 0, limit: PAGE });
    expect(page.referenceValues).toHaveLength(PAGE);
    expect(page.totalRows).toBe(TOTAL);
  });
});
