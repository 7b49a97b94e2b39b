import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMassifsServer, type MassifsServer } from './massifsFixtures.ts';
import { statementsOf } from './statementsRead.ts';

/**
 * A grant naming a place no row holds covers nothing: refused with 400 UNKNOWN_SCOPE_KEYS (a key mistyped by a
 * script, or a change kept offline naming a place a reload has since moved), at the size of a real scope tree.
 */
const MASSIFS = 30;
const PLACES_PER_MASSIF = 100;

function placesCsv(): string {
  const lines = ['code;within', 'alps;'];
  for (let m = 0; m < MASSIFS; m += 1) {
    lines.push(`m${m};alps`);
    for (let p = 0; p < PLACES_PER_MASSIF; p += 1) lines.push(`m${m}p${p};m${m}`);
  }
  return `${lines.join('\n')}\n`;
}

const keyOf = (m: number, p?: number) => `placesKalps.placesKm${m}${p === undefined ? '' : `.placesKm${m}p${p}`}`;
const grant = (keys: string[], uuid: string | null = null, name = 'the massifs') => ({
  uuid,
  name,
  usersId: ['root'],
  authorizationsWithRestriction: {
    sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: keys } },
  },
});

let massifs: MassifsServer;
const db = () => massifs.server.server.ctx.db;
const grants = async () => (await db().selectFrom('authorizations').select('id').execute()).length;

beforeAll(async () => {
  massifs = await startMassifsServer(['m0p0;01/06/2024;1'], placesCsv());
}, 120_000);
afterAll(() => massifs?.server.close());

describe('a grant naming places', () => {
  it('grants every place of a tree of thousands, in statements that do not grow with them', async () => {
    const keys = Array.from({ length: MASSIFS * PLACES_PER_MASSIF }, (_, i) =>
      keyOf(Math.floor(i / PLACES_PER_MASSIF), i % PLACES_PER_MASSIF),
    );
    const [granted, statements] = await statementsOf(db(), () =>
      massifs.owner.post('/applications/massifs/authorization', { json: grant([...keys, keyOf(3)]) }),
    );
    expect(granted.status, granted.text.slice(0, 300)).toBe(201);
    expect(statements).toBeLessThan(40);
  });

  it('refuses places no row holds, naming twenty and counting them, and keeps nothing', async () => {
    const before = await grants();
    const unknown = Array.from({ length: 25 }, (_, i) => `placesKalps.placesKtypo${String(i).padStart(2, '0')}`);
    const refused = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant([keyOf(0, 1), ...unknown, 'placesKalps.placesKm0.placesKm1p1']),
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'UNKNOWN_SCOPE_KEYS']);
    expect(refused.body.params).toEqual({
      dataName: 'sightings',
      keys: [...unknown, 'placesKalps.placesKm0.placesKm1p1'].sort().slice(0, 20),
      count: 26,
    });
    expect(await grants()).toBe(before);
  });

  it('answers a key holding a NUL with a 4xx, not a failure', async () => {
    const refused = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant(['placesKalps\u0000x']),
    });
    expect(refused.status).toBe(400);
  });

  it('accepts a key naming the start of a path some place lies under, as rights match it', async () => {
    const granted = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant(['placesKalps']),
    });
    expect(granted.status, granted.text).toBe(201);
  });

  it('refuses a rights request for a place no row holds, as a grant of it would be', async () => {
    const ask = (keys: string[]) =>
      massifs.owner.post('/applications/massifs/rightsRequest', {
        json: {
          id: null,
          fields: {},
          comment: 'For a thesis',
          rightsRequest: {
            authorizationsWithRestriction: {
              sightings: { operationTypes: ['extraction'], requiredAuthorizations: { place: keys } },
            },
          },
        },
      });
    const refused = await ask([keyOf(1, 1), 'placesKalps.placesKnowhere']);
    expect([refused.status, refused.body.code, refused.body.params?.keys]).toEqual([
      400,
      'UNKNOWN_SCOPE_KEYS',
      ['placesKalps.placesKnowhere'],
    ]);
    expect((await ask([keyOf(1, 1)])).status).toBe(201);
  });

  it('lets a grant naming a place deleted since be edited, but not given another unknown one', async () => {
    const created = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant([keyOf(29, 99)], null, 'the last place'),
    });
    expect(created.status, created.text).toBe(201);
    const deleted = await massifs.owner.delete(
      `/applications/massifs/references/places?naturalKey=${encodeURIComponent('m29p99')}`,
    );
    expect(deleted.status, deleted.text).toBe(200);
    const id = created.body.authorizationId ?? created.body.id;
    const renamed = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant([keyOf(29, 99)], id, 'the last place, deleted'),
    });
    expect(renamed.status, renamed.text).toBe(201);
    const widened = await massifs.owner.post('/applications/massifs/authorization', {
      json: grant([keyOf(29, 99), keyOf(29, 100)], id),
    });
    expect([widened.status, widened.body.params?.keys]).toEqual([400, [keyOf(29, 100)]]);
  });
});
