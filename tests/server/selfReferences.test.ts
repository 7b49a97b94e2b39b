/**
 * An entry under a parent whose rows point to other rows of the same entry without being a hierarchy (a reference to itself that is
 * neither recursive nor a parent, as the corpus's `computedwithnaturalkeycolumns` computes one): its rows may point
 * to rows of the same file and to rows stored earlier, and those are held like any pointed rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication, startDataServer, storedRows, uploadReference, type DataServer } from './dataFixtures.ts';

const YAML = `OA_version: 2.0.1
OA_application: {OA_name: twins, OA_version: 1.0.0}
OA_data:
  zones:
    OA_naturalKey: [zone]
    OA_basicComponents: {zone: null}
  sites:
    OA_naturalKey: [zone, code]
    OA_basicComponents:
      zone: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isParent: true}}}}
      code: null
      twin: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
`;

/** More rows than a page of reference reads and of pointed keys' batches. */
const ROWS = 3_000;

/** Sites of zone z1, written by their natural key (the zone's and the code's, joined as the original joins them). */
const sitesFile = (prefix: string, twinOf: (i: number) => string) =>
  ['zone;code;twin', ...Array.from({ length: ROWS }, (_, i) => `z1;${prefix}${i};z1__${twinOf(i)}`)].join('\n');

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'twins', YAML);
  expect((await uploadReference(data.admin, 'twins', 'zones', 'zones.csv', 'zone\nz1\nz2')).status).toBe(201);
});
afterAll(() => data?.server.close());

describe('an entry referring to itself', () => {
  it('stores a file whose rows point to rows of the same file', async () => {
    const answer = await uploadReference(
      data.admin,
      'twins',
      'sites',
      'a.csv',
      sitesFile('a', (i) => `a${(i + 1) % ROWS}`),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
  });

  it('stores a later file whose rows point to rows stored earlier, and refuses a twin no row has', async () => {
    const answer = await uploadReference(
      data.admin,
      'twins',
      'sites',
      'b.csv',
      sitesFile('b', (i) => `a${i}`),
    );
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    const rows = await storedRows(data.admin, 'twins', 'sites');
    expect(rows).toHaveLength(2 * ROWS);
    const b7 = rows.find((row) => row.naturalKey === 'z1__b7')!;
    const a7 = rows.find((row) => row.naturalKey === 'z1__a7')!;
    expect(b7.values.twin).toBe(a7.hierarchicalKey);

    const refused = await uploadReference(data.admin, 'twins', 'sites', 'c.csv', 'zone;code;twin\nz1;c0;z1__nowhere');
    expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_CSV']);
    expect(refused.body.errors[0]).toMatchObject({ lineNumber: 2, code: 'invalidReferenceWithComponent' });
  });

  it('refuses to delete a row other rows of the entry point to', async () => {
    const refused = await data.admin.delete('/applications/twins/references/sites?naturalKey=z1__a7');
    expect([refused.status, refused.body.code]).toEqual([409, 'REFERENCED_ROWS']);
    expect((await storedRows(data.admin, 'twins', 'sites')).some((row) => row.naturalKey === 'z1__a7')).toBe(true);
  });
});
