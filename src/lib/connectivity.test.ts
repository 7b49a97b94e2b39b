import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isServerReachable,
  reportServerReached,
  reportServerUnreachable,
  startReachabilityProbe,
} from './connectivity';

describe('startReachabilityProbe', () => {
  let stop: () => void = () => undefined;
  beforeEach(() => {
    vi.useFakeTimers();
    reportServerReached();
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('asks nothing while the server answers', () => {
    const probe = vi.fn();
    stop = startReachabilityProbe(probe, 1000, 8000);
    vi.advanceTimersByTime(60_000);
    expect(probe).not.toHaveBeenCalled();
  });

  it('asks again, less and less often, while the server is out of reach, and stops once it answers', () => {
    const probe = vi.fn();
    stop = startReachabilityProbe(probe, 1000, 4000);
    reportServerUnreachable();
    vi.advanceTimersByTime(999);
    expect(probe).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(probe).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(probe).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(4000 + 4000);
    expect(probe).toHaveBeenCalledTimes(4);

    reportServerReached();
    vi.advanceTimersByTime(60_000);
    expect(probe).toHaveBeenCalledTimes(4);
    expect(isServerReachable()).toBe(true);
  });

  it('starts again from the first delay the next time the server is lost', () => {
    const probe = vi.fn(() => reportServerReached());
    stop = startReachabilityProbe(probe, 1000, 4000);
    reportServerUnreachable();
    vi.advanceTimersByTime(1000);
    expect(probe).toHaveBeenCalledTimes(1);
    reportServerUnreachable();
    vi.advanceTimersByTime(1000);
    expect(probe).toHaveBeenCalledTimes(2);
  });
});
