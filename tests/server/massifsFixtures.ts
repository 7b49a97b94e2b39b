import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { GENEROUS_RATE_LIMITS, signedIn } from './accountFixtures.ts';
import type { ApiClient } from './apiClient.ts';
import { createApplication, csvForm, ROOT, storedRows, uploadReference } from './dataFixtures.ts';
import { startTestServer, type TestServer } from './harness.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const MASSIFS_YAML = new Uint8Array(readFileSync(path.join(fixtures, 'configurations/massifs.yaml')));
/** The places of the fixture: a tree of massifs (the Alps, the Mont Blanc under them, the Aiguilles under it…). */
export const MASSIFS_PLACES_CSV = readFileSync(path.join(fixtures, 'csv/massifs-places.csv'), 'utf8');

export interface MassifsServer {
  server: TestServer;
  /** The platform administrator, who created the application. */
  owner: ApiClient;
  /** The hierarchical key of a place, as grants name it. */
  placeKey(code: string): string;
}

/**
 * A server holding the `massifs` application (sightings of birds in places, a scope tree), its places (`placesCsv`)
 * and the sightings `lines` (`place;day;birds`), for the tests of readers restricted to a sub-tree and a period.
 */
export async function startMassifsServer(
  lines: string[],
  placesCsv: string = MASSIFS_PLACES_CSV,
): Promise<MassifsServer> {
  const server = await startTestServer({ admin: ROOT, ...GENEROUS_RATE_LIMITS });
  const owner = await signedIn(server, ROOT);
  await createApplication(owner, 'massifs', MASSIFS_YAML, 'massifs.yaml');
  const loadedPlaces = await uploadReference(owner, 'massifs', 'places', 'places.csv', placesCsv);
  expect(loadedPlaces.status, loadedPlaces.text).toBe(201);
  const loaded = await owner.post('/applications/massifs/data/sightings', {
    body: csvForm('sightings.csv', `place;day;birds\n${lines.join('\n')}\n`),
  });
  expect(loaded.status, loaded.text).toBe(201);
  const places = new Map(
    (await storedRows(owner, 'massifs', 'places')).map((row) => [row.naturalKey, row.hierarchicalKey]),
  );
  const placeKey = (code: string) => places.get(code)!;
  return { server, owner, placeKey };
}
