import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/apiError';

const answers = new Map<string, unknown>();
const kept = new Map<string, unknown>();
let reachable = true;

vi.mock('./referenceCache', () => ({
  keepReference: async (_application: string, name: string) => {
    const answer = answers.get(name);
    if (answer instanceof Error) throw answer;
    return answer;
  },
  cachedReferenceRows: async (_application: string, name: string) => kept.get(name),
}));
vi.mock('@/lib/connectivity', () => ({ isServerReachable: () => reachable }));

const { referenceCopies } = await import('./referenceCopies');

const row = (naturalKey: string) => ({ id: naturalKey, naturalKey, hierarchicalKey: naturalKey, values: {} });

beforeEach(() => {
  answers.clear();
  kept.clear();
  reachable = true;
});

describe('the references a file is checked against on a device', () => {
  it('are downloaded, a part marked as such, and a refused one missing, its old copy left unused', async () => {
    answers.set('regions', { rows: [row('alps')] });
    answers.set('sites', { rows: [row('lac')], part: true });
    answers.set('species', new ApiError(403, 'NO_RIGHT_FOR_USER_DATA_READER'));
    kept.set('species', { rows: [row('old')] });
    expect(await referenceCopies('app', ['regions', 'sites', 'species'])).toEqual({
      rows: { regions: [row('alps')], sites: [row('lac')] },
      missing: ['species'],
      parts: ['sites'],
    });
  });

  it('are read from the device out of reach, a kept part still a part, and missing when never kept', async () => {
    answers.set('regions', new ApiError(0, 'NETWORK_ERROR'));
    kept.set('regions', { rows: [row('alps')] });
    kept.set('sites', { rows: [row('lac')], part: true });
    reachable = false;
    expect(await referenceCopies('app', ['sites', 'species'])).toEqual({
      rows: { sites: [row('lac')] },
      missing: ['species'],
      parts: ['sites'],
    });
    reachable = true;
    expect((await referenceCopies('app', ['regions'])).rows).toEqual({ regions: [row('alps')] });
  });

  it('take a server failing for a server out of reach: the copy kept serves', async () => {
    answers.set('regions', new ApiError(500, 'INTERNAL_ERROR'));
    kept.set('regions', { rows: [row('alps')] });
    expect(await referenceCopies('app', ['regions'])).toEqual({
      rows: { regions: [row('alps')] },
      missing: [],
      parts: [],
    });
  });
});
