import { afterEach, describe, expect, it } from 'vitest';
import { WorkerLost, WorkerPool, WorkerStuck } from './workerPool.ts';
import type { TestWorkerApi } from './workerPool.testWorker.ts';

const ENTRY = new URL('./workerPool.testWorker.ts', import.meta.url);

describe('the worker pool', () => {
  let pool: WorkerPool<TestWorkerApi>;
  afterEach(() => pool.close());

  it('runs TypeScript workers and answers a lease’s calls in the order they were made', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 2);
    const lease = pool.lease();
    const finished: number[] = [];
    const answers = Array.from({ length: 50 }, (_, index) =>
      (index % 7 === 0 ? lease.call('busy', [5, index]) : lease.call('echo', [index])).then(
        (value) => (finished.push(value), value),
      ),
    );
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(finished).toEqual(Array.from({ length: 50 }, (_, index) => index));
    lease.release();
  });

  it('starts workers when first needed, reuses a warm one, and spreads concurrent leases', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 2);
    expect(pool.running).toBe(0);
    const first = pool.lease();
    const firstThread = await first.call('threadId', []);
    first.release();
    const again = pool.lease();
    expect(await again.call('threadId', [])).toBe(firstThread);
    const beside = pool.lease();
    expect(await beside.call('threadId', [])).not.toBe(firstThread);
    expect(pool.running).toBe(2);
    // Both busy: a third lease shares a worker, and its calls take turns with the others.
    const third = pool.lease();
    expect([firstThread, await beside.call('threadId', [])]).toContain(await third.call('threadId', []));
    for (const lease of [again, beside, third]) lease.release();
  });

  it('fails a call whose handler throws, and the worker goes on', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 1);
    const lease = pool.lease();
    await expect(lease.call('fail', ['no such row'])).rejects.toThrow('no such row');
    expect(await lease.call('echo', [4])).toBe(4);
    lease.release();
  });

  it('fails the calls waiting on a worker that crashes, and replaces the worker', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 1);
    const lease = pool.lease();
    const before = await lease.call('threadId', []);
    const crashed = lease.call('crash', []);
    const behind = lease.call('echo', [1]);
    await expect(crashed).rejects.toBeInstanceOf(WorkerLost);
    await expect(behind).rejects.toBeInstanceOf(WorkerLost);
    // The lost worker's lease stays failed: its state is gone.
    await expect(lease.call('echo', [2])).rejects.toBeInstanceOf(WorkerLost);
    lease.release();
    const next = pool.lease();
    expect(await next.call('threadId', [])).not.toBe(before);
    expect(await next.call('echo', [3])).toBe(3);
    next.release();
  });

  it('stops a worker stuck past a call’s time limit, says where it was, and replaces it', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 1);
    const lease = pool.lease();
    await lease.call('echo', [0]);
    const other = pool.lease();
    const stuck = lease.call('hang', [1234], { timeLimitMs: () => 200 });
    const sharing = other.call('echo', [5]);
    const error = await stuck.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WorkerStuck);
    expect((error as WorkerStuck).position).toBe(1234);
    await expect(sharing).rejects.toBeInstanceOf(WorkerLost);
    lease.release();
    other.release();
    const next = pool.lease();
    expect(await next.call('echo', [6])).toBe(6);
    next.release();
  });

  it('counts a time limit from when the worker starts the call, not from when it was sent', async () => {
    pool = new WorkerPool<TestWorkerApi>(ENTRY, 1);
    const lease = pool.lease();
    // Sent at once while the worker still loads its modules: counted from sending, the last would overrun.
    const calls = [1, 2, 3, 4].map((value) => lease.call('busy', [200, value], { timeLimitMs: () => 600 }));
    expect(await Promise.all(calls)).toEqual([1, 2, 3, 4]);
    lease.release();
  });
});
