/**
 * The indexes built on demand for filters and searches (filterIndexes.ts) hold the bounded beginning of texts, and
 * the queries are written to match them: a query written otherwise is still answered, by reading every row of the
 * entry. The plans the database chooses for the statements the routes send, at a size above a page and after
 * ANALYZE, show which: each read below walks its index, on both engines.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterIndexName, indexesBuilt, searchIndexName } from '../../server/services/filterIndexes.ts';
import { beginningExpression, searchExpression } from '../../server/services/referenceSuggestions.ts';
import { referenceOf } from '../../server/services/references.ts';
import {
  createApplication,
  csvForm,
  HABITATS_CSV,
  OBSERVATORY_YAML,
  q,
  STATIONS_CSV,
  startDataServer,
  uploadReference,
  type DataServer,
} from './dataFixtures.ts';
import { plansOf, type PlannedScan } from './statementsRead.ts';

/** Above the size from which an entry's filters and searches get their indexes, and far above a page. */
const ROWS = 5_200;
const APP = '/applications/observatory';

let data: DataServer;
let applicationId: string;
const db = () => data.server.server.ctx.db;

/** A reading a day, with a note and a value of its own. */
const readings = Array.from(
  { length: ROWS },
  (_, i) =>
    `anterne;${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/${2000 + Math.floor(i / 252)};${i};note ${i}`,
);

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'observatory', OBSERVATORY_YAML);
  const habitats = Array.from({ length: ROWS }, (_, i) => `h${i},Habitat ${i},Habitat ${i}`);
  const loaded = await uploadReference(
    data.admin,
    'observatory',
    'habitats',
    'habitats.csv',
    `${HABITATS_CSV}${habitats.join('\n')}\n`,
  );
  expect(loaded.status, loaded.text).toBe(201);
  expect((await uploadReference(data.admin, 'observatory', 'stations', 'stations.csv', STATIONS_CSV)).status).toBe(201);
  const written = await data.admin.post(`${APP}/data/readings`, {
    body: csvForm('readings.csv', `station;day;value;note\n${readings.join('\n')}\n`),
  });
  expect(written.status, written.text).toBe(201);
  applicationId = (
    await db().selectFrom('applications').select('id').where('name', '=', 'observatory').executeTakeFirstOrThrow()
  ).id;
  // A first filter on each component asks for its index (the loads asked for the labels'); each is then read by
  // other bounds, which no result kept from the first answers.
  for (const [componentKey, from, to] of [
    ['note', 'a', 'b'],
    ['value', '1', '2'],
    ['day', '2001-01-01', '2001-01-02'],
  ])
    expect((await rows([{ componentKey, intervalValues: { from, to } }])).status).toBe(200);
  await indexesBuilt();
  await sql`analyze data_rows`.execute(db());
}, 300_000);
afterAll(() => data?.server.close());

type Filter = { componentKey: string; intervalValues: { from: string; to: string } };
const rows = (componentFilters: Filter[]) =>
  data.admin.get(`${APP}/data/readings/json${q({ limit: 10, componentFilters })}`);

/** How a plan reads: the indexes it walks, and the tables it reads whole. */
const readsOf = (plan: PlannedScan[]) => ({
  indexes: [...new Set(plan.flatMap((scan) => (scan.index ? [scan.index] : [])))],
  wholeTables: plan.flatMap((scan) => (scan.node === 'Seq Scan' ? [scan.table] : [])),
});

describe('filters and searches at size walk the indexes built for them', () => {
  it.each([
    ['a text interval', 'note', 'text', 'note 1000', 'note 1001', ['note 1000', 'note 1001']],
    ['a number interval', 'value', 'json', '100', '102', ['note 100', 'note 101', 'note 102']],
  ] as const)('%s', async (_, componentKey, expression, from, to, notes) => {
    const [answer, plans] = await plansOf(
      db(),
      () => rows([{ componentKey, intervalValues: { from, to } }]),
      'string_agg(id::text',
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.rows.map((row: { values: { note: string } }) => row.values.note).sort()).toEqual(notes);
    const index = filterIndexName(applicationId, 'readings', { component: componentKey, expression });
    expect(plans).toHaveLength(1);
    expect(readsOf(plans[0])).toEqual({ indexes: [index], wholeTables: [] });
  });

  it('a date interval', async () => {
    const [answer, plans] = await plansOf(
      db(),
      () => rows([{ componentKey: 'day', intervalValues: { from: '2003-01-01', to: '2003-01-03' } }]),
      'string_agg(id::text',
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.totalRows).toBeGreaterThan(0);
    expect(answer.body.totalRows).toBeLessThan(10);
    const index = filterIndexName(applicationId, 'readings', { component: 'day', expression: 'date' });
    expect(readsOf(plans[0])).toEqual({ indexes: [index], wholeTables: [] });
  });

  it('a text interval in an export, read a page at a time', async () => {
    const filter = [{ componentKey: 'note', intervalValues: { from: 'note 2000', to: 'note 2001' } }];
    const [answer, plans] = await plansOf(
      db(),
      () => data.admin.get(`${APP}/data/readings/csv${q({ componentFilters: filter })}`),
      (statement) => statement.includes('collate "C"') && !statement.includes('string_agg'),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(
      answer.text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(';')[3]),
    ).toEqual(['"note 2000"', '"note 2001"']);
    const index = filterIndexName(applicationId, 'readings', { component: 'note', expression: 'text' });
    expect(plans).toHaveLength(1);
    expect(readsOf(plans[0])).toEqual({ indexes: [index], wholeTables: [] });
  });

  it.each([
    ['the beginning of labels', 'habitat 4321', 'beginning'],
    ['the words of labels', '4321 habitat', 'words'],
  ] as const)('a search of %s', async (_, text, kind) => {
    const reference = await referenceOf(data.server.server.ctx, 'observatory', 'habitats');
    const expression =
      kind === 'beginning'
        ? beginningExpression(reference.entry, 'fr', 'en')
        : searchExpression(reference.entry, 'fr', 'en');
    const index = searchIndexName(applicationId, 'habitats', expression, kind);
    const [answer, plans] = await plansOf(
      db(),
      () => data.admin.get(`${APP}/references/habitats/suggestions?${new URLSearchParams({ q: text, lang: 'fr' })}`),
      (statement) => statement.includes('select natural_key, hierarchical_key, values from data_rows'),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.suggestions.map((s: { naturalKey: string }) => s.naturalKey)).toEqual(['h4321']);
    // The beginning is read first; the words only when it found fewer than the limit.
    const read = kind === 'beginning' ? plans[0] : plans[1];
    expect(readsOf(read)).toEqual({ indexes: [index], wholeTables: [] });
  });
});
