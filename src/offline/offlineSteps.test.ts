import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/apiError';
import { keepForOffline } from './offlineSteps';

describe('making an application available offline', () => {
  it('keeps what the server allows and names what it refused', async () => {
    const kept: string[] = [];
    const steps = Array.from({ length: 40 }, (_, i) => ({
      label: `table ${i}`,
      keep: async () => {
        if (i % 7 === 3) throw new ApiError(403, 'NO_RIGHT_FOR_REFERENCE');
        kept.push(`table ${i}`);
      },
    }));
    const progress: number[] = [];
    const skipped = await keepForOffline(steps, (done) => progress.push(done));
    expect(skipped.map((s) => s.label)).toEqual([
      'table 3',
      'table 10',
      'table 17',
      'table 24',
      'table 31',
      'table 38',
    ]);
    expect(kept).toHaveLength(34);
    expect(progress.at(-1)).toBe(1);
  });

  it('stops when the server is out of reach, keeping what was done', async () => {
    const kept: number[] = [];
    const steps = [0, 1, 2].map((i) => ({
      label: String(i),
      keep: async () => {
        if (i === 1) throw new ApiError(0, 'NETWORK_ERROR');
        kept.push(i);
      },
    }));
    await expect(keepForOffline(steps, () => undefined)).rejects.toMatchObject({ status: 0 });
    expect(kept).toEqual([0]);
  });
});
