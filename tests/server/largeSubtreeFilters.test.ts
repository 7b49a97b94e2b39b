/**
 * A reference filter on a key whose sub-tree holds more rows than are listed (`LISTED_SUBTREE_KEYS`): the root of a
 * large tree of places. Its rows are then compared by the beginnings of their keys: the same rows, counted alike,
 * for a reader of everything and one holding part of the tree, and as the device's copy answers (`filterRows`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterRows, type KeptRow } from '../../src/domain/rows/filterRows.ts';
import { LISTED_SUBTREE_KEYS } from '../../server/services/rowQueries.ts';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { modelOf, q } from './dataFixtures.ts';
import type { TestServer } from './harness.ts';
import { MASSIFS_PLACES_CSV, startMassifsServer } from './massifsFixtures.ts';
import { statementsOf } from './statementsRead.ts';

/** Summits under the Mont Blanc, a thousand and more, and as many under the Vanoise. */
const SUMMITS = LISTED_SUBTREE_KEYS + 500;
const summit = (massif: string, index: number) => `${massif}_${String(index).padStart(5, '0')}`;
const PLACES_CSV = `${MASSIFS_PLACES_CSV.trimEnd()}
${Array.from({ length: SUMMITS }, (_, index) => `${summit('mb', index)};mont_blanc\n${summit('va', index)};vanoise`).join('\n')}
`;
/** One sighting a summit, and one at the Alps themselves. */
const LINES = [
  'alps;01/06/2024;1',
  ...Array.from({ length: SUMMITS }, (_, index) => [
    `${summit('mb', index)};01/06/2024;${index % 7}`,
    `${summit('va', index)};02/06/2024;${index % 5}`,
  ]).flat(),
];

let server: TestServer;
let owner: ApiClient;
let reader: ApiClient;
let keyOf: (code: string) => string;

beforeAll(async () => {
  ({ server, owner, placeKey: keyOf } = await startMassifsServer(LINES, PLACES_CSV));
  const account = await activeAccount(server, newIdentity('vanoisereader'));
  const granted = await owner.post('/applications/massifs/authorization', {
    json: {
      name: 'Vanoise',
      usersId: [account.login],
      authorizationForAll: { places: ['extraction'] },
      authorizationsWithRestriction: {
        sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: [keyOf('vanoise')] } },
      },
    },
  });
  expect(granted.status, granted.text).toBe(201);
  reader = await signedIn(server, account);
}, 180_000);
afterAll(() => server?.close());

async function total(client: ApiClient, filters: string[]) {
  const answer = await client.get(
    `/applications/massifs/data/sightings/json${q({ limit: 10, componentFilters: [{ componentKey: 'place', filters }] })}`,
  );
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer.body.totalRows as number;
}

describe('a filter on a key whose sub-tree is larger than is listed', () => {
  it('takes every row below it, by its natural key or its hierarchical key, never listing the sub-tree', async () => {
    const [alps, , , largest] = await statementsOf(server.server.ctx.db, () => total(owner, ['alps']));
    expect(alps).toBe(LINES.length);
    // The keys read to build the filter stop past the listed bound; the page reads ten rows.
    expect(largest).toBeLessThanOrEqual(LISTED_SUBTREE_KEYS + 2);
    expect(await total(owner, [keyOf('alps')])).toBe(LINES.length);
    expect(await total(owner, ['mont_blanc'])).toBe(SUMMITS);
    expect(await total(owner, ['mont_blanc', summit('va', 3)])).toBe(SUMMITS + 1);
    const csv = await owner.get(
      `/applications/massifs/data/sightings/csv${q({ componentFilters: [{ componentKey: 'place', filters: ['vanoise'] }] })}`,
    );
    expect(csv.text.trimEnd().split('\n')).toHaveLength(1 + SUMMITS);
  });

  it('gives a reader of part of the tree their part only', async () => {
    expect(await total(reader, ['alps'])).toBe(SUMMITS);
    expect(await total(reader, ['mont_blanc'])).toBe(0);
  });

  it('answers as the device copy does', async () => {
    const kept = (await owner.get('/applications/massifs/references/places/rows')).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as KeptRow);
    const places = (await modelOf(owner, 'massifs')).data.find((entry) => entry.name === 'places')!;
    const hierarchicalKeysOf = (_reference: string, naturalKeys: string[]) =>
      new Set(kept.filter((row) => naturalKeys.includes(row.naturalKey)).map((row) => row.hierarchicalKey));
    for (const filters of [['alps'], [keyOf('mont_blanc')], ['vanoise', summit('mb', 9)]]) {
      const query = { limit: 1, componentFilters: [{ componentKey: 'within', filters }] };
      const online = await owner.get(`/applications/massifs/references/places${q(query)}`);
      expect({ filters, total: online.body.totalRows }).toEqual({
        filters,
        total: filterRows(places, kept, query, hierarchicalKeysOf).totalRows,
      });
    }
  });
});
