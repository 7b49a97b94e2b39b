import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, newIdentity, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { q } from './dataFixtures.ts';
import type { TestServer } from './harness.ts';
import { startMassifsServer } from './massifsFixtures.ts';

/**
 * Every count the synthesis and the data-type tree show is one of the rows the user may read: a reader restricted
 * to a sub-tree of places, or to a sub-tree and a month, counts fewer lines than the manager, at real size (two
 * years of daily sightings in five places, some without a count of birds), on PGlite and on PostgreSQL.
 */

const PLACES = ['alps', 'mont_blanc', 'aiguilles', 'mont_blanc_sud', 'vanoise'];
/** Under the Mont Blanc (itself included): what the restricted readers may read. */
const MONT_BLANC = new Set(['mont_blanc', 'aiguilles']);

interface Sighting {
  place: string;
  day: Date;
  birds: string;
}

const DAY = 86_400_000;
const SIGHTINGS: Sighting[] = [];
for (let time = Date.UTC(2023, 0, 1); time < Date.UTC(2025, 0, 1); time += DAY)
  PLACES.forEach((place, i) => {
    const day = new Date(time);
    // One line in three has no count of birds: the variables' counts differ from the lines'.
    SIGHTINGS.push({ place, day, birds: (SIGHTINGS.length + i) % 3 === 0 ? '' : String((time / DAY + i) % 17) });
  });
const ddmmyyyy = (day: Date) =>
  `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
const inJune2024 = (s: Sighting) => s.day.getUTCFullYear() === 2024 && s.day.getUTCMonth() === 5;

const sum = (counts: number[] = []) => counts.reduce((a, b) => a + b, 0);

let server: TestServer;
let owner: ApiClient;
let underMontBlanc: ApiClient;
let underMontBlancInJune: ApiClient;

beforeAll(async () => {
  let placeKey: (code: string) => string;
  ({ server, owner, placeKey } = await startMassifsServer(
    SIGHTINGS.map((s) => `${s.place};${ddmmyyyy(s.day)};${s.birds}`),
  ));
  const montBlanc = placeKey('mont_blanc');
  const grant = async (login: string, timeScope?: object) => {
    const answer = await owner.post('/applications/massifs/authorization', {
      json: {
        name: `Mont Blanc for ${login}`,
        description: 'sub-tree',
        usersId: [login],
        authorizationsWithRestriction: {
          sightings: {
            operationTypes: ['extraction'],
            requiredAuthorizations: { place: [montBlanc] },
            ...(timeScope ? { timeScope } : {}),
          },
        },
      },
    });
    expect(answer.status, answer.text).toBe(201);
  };
  const [whole, june] = await Promise.all(
    ['synthsub', 'synthjune'].map((who) => activeAccount(server, newIdentity(who))),
  );
  await grant(whole.login);
  await grant(june.login, { fromDay: '2024-06-01', toDay: '2024-06-30' });
  [underMontBlanc, underMontBlancInJune] = await Promise.all([whole, june].map((account) => signedIn(server, account)));
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('the counts a reader may read', () => {
  it('are every line for the manager, in the synthesis and on the tree', async () => {
    expect(SIGHTINGS.length).toBeGreaterThan(3000);
    const synthesis = (await owner.get('/applications/massifs/synthesis/sightings')).body;
    expect(sum(synthesis.variables.place)).toBe(SIGHTINGS.length);
    expect(sum(synthesis.variables.birds)).toBe(SIGHTINGS.filter((s) => s.birds !== '').length);
    expect(synthesis.from).toBe('2023-01-01T00:00:00');
    const view = (await owner.get('/applications/massifs?filter=ALL')).body;
    expect(view.lineCounts.sightings).toBe(SIGHTINGS.length);
  });

  it('are the lines under the Mont Blanc for a reader of that sub-tree, per variable and per interval', async () => {
    const mine = SIGHTINGS.filter((s) => MONT_BLANC.has(s.place));
    const synthesis = (await underMontBlanc.get('/applications/massifs/synthesis/sightings')).body;
    expect(synthesis.intervals).toHaveLength(10);
    expect(sum(synthesis.variables.place)).toBe(mine.length);
    expect(sum(synthesis.variables.birds)).toBe(mine.filter((s) => s.birds !== '').length);
    // Interval by interval: the lines of the reader's places whose day falls in it.
    const expected = synthesis.intervals.map(({ from, to }: { from: string; to: string }, i: number) => {
      const start = Date.parse(`${from}Z`);
      const end = Date.parse(`${to}Z`);
      const last = i === synthesis.intervals.length - 1;
      return mine.filter((s) => s.day.getTime() >= start && (s.day.getTime() < end || last)).length;
    });
    expect(synthesis.variables.place).toEqual(expected);
    const one = (await underMontBlanc.get('/applications/massifs/synthesis/sightings/birds')).body;
    expect(Object.keys(one.variables)).toEqual(['birds']);
    expect(one.variables.birds).toEqual(synthesis.variables.birds);
    // The tree gives no total of the entry to whom may read only part of it: the total would tell of the rest.
    const view = (await underMontBlanc.get('/applications/massifs?filter=ALL')).body;
    expect(view.lineCounts?.sightings).toBeUndefined();
    const page = await underMontBlanc.get(`/applications/massifs/data/sightings/json${q({ offset: 0, limit: 1 })}`);
    expect(page.body.totalRows).toBe(mine.length);
  });

  it('are the lines under the Mont Blanc in June 2024 for a reader of that month, over that month only', async () => {
    const mine = SIGHTINGS.filter((s) => MONT_BLANC.has(s.place) && inJune2024(s));
    expect(mine).toHaveLength(60);
    const synthesis = (await underMontBlancInJune.get('/applications/massifs/synthesis/sightings')).body;
    expect(sum(synthesis.variables.place)).toBe(60);
    expect(sum(synthesis.variables.birds)).toBe(mine.filter((s) => s.birds !== '').length);
    expect(sum(synthesis.variables.birds)).toBeLessThan(60);
    expect(synthesis.from).toBe('2024-06-01T00:00:00');
    expect(synthesis.to).toBe('2024-07-01T00:00:00');
    const page = await underMontBlancInJune.get(
      `/applications/massifs/data/sightings/json${q({ offset: 0, limit: 1 })}`,
    );
    expect(page.body.totalRows).toBe(60);
  });
});
