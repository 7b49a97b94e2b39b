import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@/contract/version';
import { ApiError } from '@/lib/api/apiError';
import { setCurrentUser } from './currentUser';
import { offlineDb } from './db';
import { forgetReadsInMemory, keptCopies, keptRead } from './queryCache';

const unreachable = () => Promise.reject(new ApiError(0, 'NETWORK_ERROR'));
const signIn = (login: string) =>
  setCurrentUser({ login, email: `${login}@x.org`, id: login, isAdmin: false } as never);

describe('the read cache', () => {
  afterEach(() => forgetReadsInMemory());

  it('answers the copy kept on the device, with its date, once the server is out of reach', async () => {
    signIn('ann');
    const before = Date.now();
    expect(await keptRead(['application', 'monsore', 'view'], () => Promise.resolve({ title: 'Monsore' }))).toEqual({
      value: { title: 'Monsore' },
    });
    // A new page: nothing in memory, only what IndexedDB kept.
    forgetReadsInMemory();
    const kept = await keptRead(['application', 'monsore', 'view'], unreachable);
    expect(kept.value).toEqual({ title: 'Monsore' });
    expect(kept.offlineSince).toBeGreaterThanOrEqual(before);
  });

  it('keeps each read with the contract version, and does not serve a copy a later version kept', async () => {
    signIn('ann');
    await keptRead(['application', 'later', 'view'], () => Promise.resolve({ title: 'Later' }));
    const [row] = await offlineDb.queries.where('key').startsWith('ann\u0000').toArray();
    expect(row.version).toBe(CONTRACT_VERSION);
    await offlineDb.queries.toCollection().modify({ version: CONTRACT_VERSION + 1 });
    forgetReadsInMemory();
    await expect(keptRead(['application', 'later', 'view'], unreachable)).rejects.toMatchObject({ status: 0 });
    expect(await keptCopies(['application', 'later'])).toEqual([]);
    // Kept before versions were recorded: served as it is.
    await offlineDb.queries.toCollection().modify((kept) => void delete kept.version);
    expect((await keptRead(['application', 'later', 'view'], unreachable)).value).toEqual({ title: 'Later' });
  });

  it('never replaces a refusal by a kept copy', async () => {
    signIn('ann');
    await keptRead(['application', 'secret', 'view'], () => Promise.resolve({ title: 'Secret' }));
    await expect(
      keptRead(['application', 'secret', 'view'], () => Promise.reject(new ApiError(403, 'NO_RIGHT'))),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("keeps each person's reads to themselves on a shared device", async () => {
    signIn('ann');
    await keptRead(['application', 'shared', 'view'], () => Promise.resolve({ title: "Ann's copy" }));
    forgetReadsInMemory();
    signIn('bob');
    await expect(keptRead(['application', 'shared', 'view'], unreachable)).rejects.toMatchObject({ status: 0 });
    signIn('ann');
    expect((await keptRead(['application', 'shared', 'view'], unreachable)).value).toEqual({ title: "Ann's copy" });
  });

  it('finds every page kept under a prefix, whatever its filters', async () => {
    signIn('ann');
    for (let offset = 0; offset < 3; offset++)
      await keptRead(['application', 'monsore', 'rightsRequests', { offset }], () => Promise.resolve({ offset }));
    await keptRead(['application', 'other', 'rightsRequests', { offset: 0 }], () => Promise.resolve({ offset: 9 }));
    forgetReadsInMemory();
    const pages = await keptCopies<{ offset: number }>(['application', 'monsore', 'rightsRequests']);
    expect(pages.map((page) => page.value.offset).sort()).toEqual([0, 1, 2]);
  });

  it('keeps a tablet-sized cache: 1,200 pages under one application and a 50,000-row table, all found offline', async () => {
    signIn('ann');
    const pages = 1_200;
    for (let offset = 0; offset < pages; offset++)
      await keptRead(['application', 'big', 'rows', 'sites', { offset, limit: 10 }], () =>
        Promise.resolve({ offset, rows: Array.from({ length: 10 }, (_, i) => `row ${offset * 10 + i}`) }),
      );
    const table = Array.from({ length: 50_000 }, (_, i) => ({ naturalKey: `s${i}`, values: { label: `Site ${i}` } }));
    await keptRead(['application', 'big', 'table'], () => Promise.resolve(table));
    forgetReadsInMemory();

    const kept = await keptCopies<{ offset: number }>(['application', 'big', 'rows']);
    expect(kept).toHaveLength(pages);
    expect(new Set(kept.map((page) => page.value.offset)).size).toBe(pages);
    const whole = await keptRead<typeof table>(['application', 'big', 'table'], unreachable);
    expect(whole.value).toHaveLength(50_000);
    expect(whole.value[49_999]).toEqual(table[49_999]);
  }, 60_000);
});
