import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { ApiError } from '@/lib/api/apiError';
import { setCurrentUser } from '@/offline/currentUser';
import { keepForOffline } from '@/offline/offlineSteps';
import { forgetReadsInMemory, keptCopy } from '@/offline/queryCache';
import { rightsOfflineSteps } from './offlineSteps';

const labels = {
  authorizations: 'Data rights',
  managers: 'Managers',
  rightsRequests: 'Rights requests',
  requestForm: 'Request form',
};

const applicationAs = (roles: string[], isAdministrator = false) =>
  ({
    name: 'monsore',
    isAdministrator,
    currentApplicationUserRolesResult: { applicationRoles: roles },
  }) as unknown as ApplicationView;

/** The server: each path answers its own name; the refused ones answer 403. */
function serve(refused: string[] = []) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const path = decodeURIComponent(url.replace('/api/v1/applications/monsore/', ''));
    asked.push(path);
    if (refused.some((r) => path.startsWith(r)))
      return new Response(JSON.stringify({ code: 'NO_RIGHT' }), { status: 403 });
    return new Response(JSON.stringify({ answerTo: path }), { status: 200 });
  });
  return asked;
}

/** What a screen reading `queryKey` finds on the device after a restart (nothing in memory). */
const keptAt = async (queryKey: readonly unknown[]) => (await keptCopy<{ answerTo: string }>(queryKey))?.value.answerTo;

describe('making the rights screens available offline', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetReadsInMemory();
  });

  it("keeps, under the screens' keys, what a user manager reads", async () => {
    setCurrentUser({ login: 'ann', email: 'ann@x.org', id: 'ann', isAdmin: false } as never);
    serve();
    const steps = rightsOfflineSteps(applicationAs(['userManager']), labels);
    expect(steps.map((s) => s.label)).toEqual(['Data rights', 'Managers', 'Rights requests', 'Request form']);
    expect(await keepForOffline(steps, () => undefined)).toEqual([]);
    forgetReadsInMemory();

    expect(await keptAt(['application', 'monsore', 'authorizations'])).toBe('authorization');
    expect(await keptAt(['application', 'monsore', 'grantable'])).toBe('grantable');
    expect(await keptAt(['application', 'monsore', 'applicationUsers'])).toBe('authorizationAdminForApplication');
    expect(await keptAt(['application', 'monsore', 'rightsRequestOptions'])).toBe('rightsRequest/options');
    // The first page as the list opens: every status, no search, the first 30.
    const firstPage = ['application', 'monsore', 'rightsRequests', { setted: null, offset: 0, limit: 30 }];
    expect(await keptAt(firstPage)).toBe('rightsRequest?params={"setted":null,"offset":0,"limit":30}');
  });

  it('keeps only the requests for someone who does not manage rights', async () => {
    setCurrentUser({ login: 'bob', email: 'bob@x.org', id: 'bob', isAdmin: false } as never);
    const asked = serve();
    const steps = rightsOfflineSteps(applicationAs([]), labels);
    expect(steps.map((s) => s.label)).toEqual(['Rights requests', 'Request form']);
    await keepForOffline(steps, () => undefined);
    expect(asked.some((path) => path.startsWith('authorization'))).toBe(false);
  });

  it('fails a refused step with the server error, so that it is skipped and named', async () => {
    setCurrentUser({ login: 'cat', email: 'cat@x.org', id: 'cat', isAdmin: false } as never);
    serve(['authorizationAdminForApplication']);
    const steps = rightsOfflineSteps(applicationAs([], true), labels);
    await expect(steps[1]!.keep()).rejects.toBeInstanceOf(ApiError);
    const skipped = await keepForOffline(steps, () => undefined);
    expect(skipped.map((s) => s.label)).toEqual(['Managers']);
    expect(await keptAt(['application', 'monsore', 'authorizations'])).toBe('authorization');
  });

  it('stops when the server is out of reach, even with a copy kept before', async () => {
    setCurrentUser({ login: 'dan', email: 'dan@x.org', id: 'dan', isAdmin: false } as never);
    serve();
    const steps = rightsOfflineSteps(applicationAs([]), labels);
    await keepForOffline(steps, () => undefined);
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(keepForOffline(steps, () => undefined)).rejects.toMatchObject({ status: 0 });
  });
});
