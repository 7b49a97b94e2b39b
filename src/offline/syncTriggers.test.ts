import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportServerReached, reportServerUnreachable } from '@/lib/connectivity';
import { TerrainDatabase } from './db';
import { createOutbox, type Submission } from './outbox';
import { startSyncTriggers } from './syncTriggers';

const change = (resource: string): Submission => ({
  kind: 'role.grant',
  summary: { resource },
  resource,
  request: { method: 'PUT', path: `/things/${resource}`, headers: {}, body: { type: 'json', value: { resource } } },
});

describe("the page's sync triggers", () => {
  let page: EventTarget;
  let document: EventTarget & { visibilityState: string };
  beforeEach(() => {
    // Only the clock and timers are faked: fake-indexeddb answers through setImmediate, left real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    page = new EventTarget();
    document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
    vi.stubGlobal('window', page);
    vi.stubGlobal('document', document);
    vi.stubGlobal('navigator', { onLine: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('post less than once per four seconds while the server is unreachable, and at once when it answers', async () => {
    let reachable = false;
    let posts = 0;
    const fetch = (async () => {
      posts += 1;
      if (!reachable) throw new TypeError('Failed to fetch');
      return new Response('{}', { status: 200 });
    }) as typeof globalThis.fetch;
    const db = new TerrainDatabase(`sync-triggers-${Date.now()}`);
    const outbox = createOutbox({
      db,
      fetch,
      onReachability: (r) => (r ? reportServerReached() : reportServerUnreachable()),
    });
    const worker = createOutbox({ db, fetch });
    await outbox.enqueue(change('a'));
    await outbox.enqueue(change('b'));
    const stop = startSyncTriggers(outbox);
    // 20 s of a restless page: it comes back into view every half second, the worker is woken as often.
    for (let elapsed = 0; elapsed < 20_000; elapsed += 500) {
      await vi.advanceTimersByTimeAsync(500);
      document.dispatchEvent(new Event('visibilitychange'));
      await worker.process();
    }
    expect(posts).toBeGreaterThan(0);
    expect(posts).toBeLessThanOrEqual(5);

    // Any call of the page meets the server again: the queue goes at once, not at the end of the backoff.
    reachable = true;
    const before = posts;
    reportServerReached();
    await vi.waitFor(() => expect(posts).toBe(before + 2), { interval: 10, timeout: 1000 });
    expect(await outbox.pendingCount()).toBe(0);
    stop();
  });
});
