/**
 * Rows of a data type deleted while a file pointing to them is being written (`deleteDataRows` under the entry's
 * lock, as reference rows are deleted): the deletion waits for the write, then finds its rows and is refused
 * REFERENCED_ROWS, and no row is left pointing nowhere. The deletion goes through a second instance in its own
 * process: PostgreSQL only (on the embedded database transactions follow one another, and a deletion between a
 * write's batches is caught by the write's own last check, `pointedRowsRaces.test.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from './httpClient.ts';
import { entryWriteUnderWay, pointingNowhere, startRacingInstances } from './raceFixtures.ts';
import { createApplication, csvForm, TALLIES_YAML, type DataServer } from './dataFixtures.ts';

const COUNTS = 2_000;
/** Enough notes that their write spans many batches. */
const NOTES = 20_000;

let data: DataServer;
let elsewhere: HttpClient;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ data, elsewhere, close } = await startRacingInstances());
  await createApplication(data.admin, 'tallies', TALLIES_YAML);
  const counts = ['code;value', ...Array.from({ length: COUNTS }, (_, i) => `c${i};${i}`)].join('\n');
  const stored = await data.admin.post('/applications/tallies/data/counts', { body: csvForm('counts.csv', counts) });
  expect(stored.status, stored.text.slice(0, 300)).toBe(201);
}, 120_000);

afterAll(() => close?.());

describe.runIf(process.env.DATABASE_URL)('rows of a data type deleted while a file pointing to them is written', () => {
  it('makes the deletion wait for the write, then refuses it', async () => {
    const notes = ['code;count', ...Array.from({ length: NOTES }, (_, i) => `n${i};c${i % COUNTS}`)].join('\n');
    const upload = data.admin.post('/applications/tallies/data/notes', { body: csvForm('notes.csv', notes) });
    // The write holds its entry, and the counts it points to, from its first batch to its commit.
    await entryWriteUnderWay(data);
    const form = new FormData();
    form.append('downloadDatasetQuery', JSON.stringify({ naturalKeys: [`c${COUNTS - 1}`] }));
    const deleted = await elsewhere.delete('/applications/tallies/data/counts', { body: form });
    const stored = await upload;
    expect(stored.status, stored.text.slice(0, 300)).toBe(201);
    expect([deleted.status, deleted.body.code], deleted.text).toEqual([409, 'REFERENCED_ROWS']);
    expect(await pointingNowhere(data, 'tallies', 'notes')).toBe(0);
  }, 300_000);
});
