import { describe, expect, it } from 'vitest';
import { backoffMs, stillWaiting } from './backoff';

describe('waits of the outbox', () => {
  it('double from 2 s to at most 5 minutes, with a fifth of jitter either way', () => {
    expect(backoffMs(1, () => 0.5)).toBe(2000);
    expect(backoffMs(2, () => 0.5)).toBe(4000);
    expect(backoffMs(20, () => 0.5)).toBe(300_000);
    expect(backoffMs(3, () => 0)).toBe(6400);
    expect(backoffMs(30, () => 1)).toBe(360_000);
  });

  it('end when their time comes, or at once when the clock was set back further than any wait lasts', () => {
    const now = 1_000_000_000;
    expect(stillWaiting(now + backoffMs(30, () => 1), now)).toBe(true);
    expect(stillWaiting(now, now)).toBe(false);
    // Set back by a day after the wait was set: it would otherwise last a day.
    expect(stillWaiting(now + 24 * 3600 * 1000, now)).toBe(false);
  });
});
