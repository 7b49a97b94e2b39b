import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/apiError';
import { keptCall } from './keptCall';

const unreachable = () => Promise.reject(new ApiError(0, 'NETWORK_ERROR'));

describe('keptCall', () => {
  it('answers the server, and the kept answer with its time when the network is down', async () => {
    const before = Date.now();
    expect(await keptCall('kept:list', async () => ['a', 'b'])).toEqual({ value: ['a', 'b'] });
    const offline = await keptCall('kept:list', unreachable);
    expect(offline.value).toEqual(['a', 'b']);
    expect(offline.offlineSince).toBeGreaterThanOrEqual(before);
    // A later answer replaces the kept one.
    await keptCall('kept:list', async () => ['c']);
    expect((await keptCall('kept:list', unreachable)).value).toEqual(['c']);
  });

  it('lets the network error through when nothing was kept, and refusals always', async () => {
    await expect(keptCall('kept:never', unreachable)).rejects.toMatchObject({ isNetworkError: true });
    await keptCall('kept:refused', async () => 1);
    await expect(keptCall('kept:refused', () => Promise.reject(new ApiError(403, 'FORBIDDEN')))).rejects.toMatchObject({
      status: 403,
    });
  });
});
