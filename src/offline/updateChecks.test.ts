import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkForUpdates } from './updateChecks';

afterEach(() => {
  vi.useRealTimers();
});

describe('a page left open', () => {
  it('asks for a new version every hour, when the network comes back and when shown again, never offline', () => {
    vi.useFakeTimers();
    let asked = 0;
    let online = true;
    let visible = true;
    const events = new EventTarget();
    const stop = checkForUpdates(
      { update: async () => void (asked += 1) },
      { network: events, page: events, isOnline: () => online, isVisible: () => visible, everyMs: 1_000 },
    );
    vi.advanceTimersByTime(2_500);
    expect(asked).toBe(2);
    events.dispatchEvent(new Event('online'));
    events.dispatchEvent(new Event('visibilitychange'));
    expect(asked).toBe(4);
    visible = false;
    events.dispatchEvent(new Event('visibilitychange'));
    online = false;
    vi.advanceTimersByTime(1_000);
    expect(asked).toBe(4);
    stop();
    online = true;
    vi.advanceTimersByTime(5_000);
    events.dispatchEvent(new Event('online'));
    expect(asked).toBe(4);
  });
});
