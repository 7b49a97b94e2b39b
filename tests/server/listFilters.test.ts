/**
 * Filters on columns holding lists (MANY): a row matches when one of its values does, for intervals (open ends
 * too) and values, on dates, numbers and texts; the device's copy (`filterRows`) answers the same rows. Above a
 * page: 3,000 rows. A list's JSON text compared whole once matched unrelated rows (review).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import { filterRows, type KeptRow } from '../../src/domain/rows/filterRows.ts';
import type { RowQuery } from '../../src/domain/rows/rowQuery.ts';
import { createApplication, modelOf, q, startDataServer, uploadReference, type DataServer } from './dataFixtures.ts';

const YAML = `OA_version: 2.0.1
OA_application:
  OA_name: lists
  OA_version: 1.0.0
  OA_defaultLanguage: en
  OA_i18n:
    OA_title: {fr: Listes, en: Lists}
OA_data:
  visits:
    OA_i18n:
      OA_title: {fr: Visites, en: Visits}
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      days:
        OA_checker: {OA_name: OA_date, OA_params: {OA_pattern: dd/MM/yyyy, OA_multiplicity: MANY}}
      depths:
        OA_checker: {OA_name: OA_float, OA_params: {OA_multiplicity: MANY}}
      tags:
        OA_checker: {OA_name: OA_string, OA_params: {OA_multiplicity: MANY}}
`;

const ROWS = 3_000;
/** Row i: days in year 2000 + i % 30 (two of them), depths i % 50 and i % 50 + 100, tags t<i % 7> and u<i % 11>. */
function visitsCsv(): string {
  const lines = ['code;days;depths;tags'];
  for (let i = 0; i < ROWS; i += 1) {
    const year = 2000 + (i % 30);
    lines.push(`v${i};"01/03/${year},15/09/${year}";"${i % 50}.5,${(i % 50) + 100}";"t${i % 7},u${i % 11}"`);
  }
  return `${lines.join('\n')}\n`;
}

let data: DataServer;
let model: ApplicationModel;
let kept: KeptRow[];

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'lists', YAML);
  expect((await uploadReference(data.admin, 'lists', 'visits', 'visits.csv', visitsCsv())).status).toBe(201);
  model = await modelOf(data.admin, 'lists');
  kept = (await data.admin.get('/applications/lists/references/visits/rows')).text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as KeptRow);
}, 120_000);
afterAll(() => data?.server.close());

async function total(query: RowQuery) {
  const answer = await data.admin.get(`/applications/lists/references/visits${q({ ...query, limit: 1 })}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.totalRows as number;
}

const expected = (test: (i: number) => boolean) => Array.from({ length: ROWS }, (_, i) => i).filter(test).length;

describe('filters on lists', () => {
  const entry = () => model.data.find((d) => d.name === 'visits')!;
  const cases: Array<[string, RowQuery, number]> = [
    [
      'dates from 2025 on',
      { componentFilters: [{ componentKey: 'days', intervalValues: { from: '2025' } }] },
      expected((i) => i % 30 >= 25),
    ],
    [
      'dates up to 2001',
      { componentFilters: [{ componentKey: 'days', intervalValues: { to: '2001' } }] },
      expected((i) => i % 30 <= 1),
    ],
    ['dates far ahead', { componentFilters: [{ componentKey: 'days', intervalValues: { from: '2100' } }] }, 0],
    [
      'one day',
      { componentFilters: [{ componentKey: 'days', filters: ['15/09/2003'] }] },
      expected((i) => i % 30 === 3),
    ],
    [
      'depths from 140',
      { componentFilters: [{ componentKey: 'depths', intervalValues: { from: '140' } }] },
      expected((i) => i % 50 >= 40),
    ],
    [
      'depths 10 to 12',
      { componentFilters: [{ componentKey: 'depths', intervalValues: { from: '10', to: '12' } }] },
      expected((i) => i % 50 === 10 || i % 50 === 11),
    ],
    ['a depth', { componentFilters: [{ componentKey: 'depths', filters: ['103.0'] }] }, expected((i) => i % 50 === 3)],
    [
      'tags from u8',
      { componentFilters: [{ componentKey: 'tags', intervalValues: { from: 'u8' } }] },
      expected((i) => i % 11 === 8 || i % 11 === 9),
    ],
    ['tags from _', { componentFilters: [{ componentKey: 'tags', intervalValues: { from: '_' } }] }, ROWS],
    ['a tag', { componentFilters: [{ componentKey: 'tags', filters: ['t3'] }] }, expected((i) => i % 7 === 3)],
  ];

  // Texts compare in code point order: u10 comes before u8.
  it.each(cases)('%s: the server and the device answer the rows holding such a value', async (_name, query, count) => {
    expect(await total(query)).toBe(count);
    expect(filterRows(entry(), kept, query, () => new Set()).totalRows).toBe(count);
  });
});
