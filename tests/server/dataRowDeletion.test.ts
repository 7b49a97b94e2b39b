/**
 * Rows of a data type without versioning may be pointed to by other rows, as reference rows are: deleting them is
 * refused while rows point to them (nothing deleted), and the refusal names the pointing rows only to a caller who
 * reads their entry whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAccount, signedIn } from './accountFixtures.ts';
import {
  createApplication,
  csvForm,
  startDataServer,
  tableState,
  TALLIES_YAML,
  type DataServer,
} from './dataFixtures.ts';

/** Above the pages of row reads and the listed pointing rows. */
const ROWS = 3_000;

let data: DataServer;

/** The query in a form's field, as the original's front end sends it: thousands of keys do not fit in a URL. */
const deleteCounts = (naturalKeys: string[], client = data.admin) => {
  const form = new FormData();
  form.append('downloadDatasetQuery', JSON.stringify({ naturalKeys }));
  return client.delete('/applications/tallies/data/counts', { body: form });
};

const rowCount = async (entry: string) => (await tableState(data.admin, 'tallies', entry, 'data')).totalRows;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'tallies', TALLIES_YAML);
  const counts = ['code;value', ...Array.from({ length: ROWS }, (_, i) => `c${i};${i}`)].join('\n');
  const notes = ['code;count', ...Array.from({ length: ROWS / 2 }, (_, i) => `n${i};c${i}`)].join('\n');
  for (const [entry, text] of [
    ['counts', counts],
    ['notes', notes],
  ]) {
    const answer = await data.admin.post(`/applications/tallies/data/${entry}`, {
      body: csvForm(`${entry}.csv`, text),
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
  }
});
afterAll(() => data?.server.close());

describe('deleting rows of a data type other rows point to', () => {
  it('refuses the whole deletion while one row is pointed to, naming the pointing rows, and deletes nothing', async () => {
    const every = Array.from({ length: ROWS }, (_, i) => `c${i}`);
    const refused = await deleteCounts(every);
    expect([refused.status, refused.body.code], refused.text.slice(0, 300)).toEqual([409, 'REFERENCED_ROWS']);
    expect(refused.body.params.referring.length).toBeGreaterThan(0);
    expect(refused.body.params.referring[0]).toMatchObject({ dataName: 'notes' });
    expect(await rowCount('counts')).toBe(ROWS);
  });

  it("refuses alike a caller who may delete counts but read no notes, without the notes' keys", async () => {
    const account = await activeAccount(data.server);
    const granted = await data.admin.post('/applications/tallies/authorization', {
      json: { name: 'count keeper', usersId: [account.login], authorizationForAll: { counts: ['delete'] } },
    });
    expect(granted.status, granted.text).toBe(201);
    const keeper = await signedIn(data.server, account);
    const refused = await deleteCounts(['c0'], keeper);
    expect([refused.status, refused.body.code, refused.body.params?.referring]).toEqual([409, 'REFERENCED_ROWS', []]);
    expect(await rowCount('counts')).toBe(ROWS);
  });

  it('deletes the rows nothing points to', async () => {
    const free = Array.from({ length: ROWS / 2 }, (_, i) => `c${ROWS / 2 + i}`);
    const deleted = await deleteCounts(free);
    expect(deleted.status, deleted.text.slice(0, 300)).toBe(200);
    expect(deleted.body.deleted).toHaveLength(ROWS / 2);
    expect(await rowCount('counts')).toBe(ROWS / 2);
  });
});
