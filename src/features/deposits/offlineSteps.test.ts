import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataEntry } from '@/domain/configuration/model';
import { setCurrentUser } from '@/offline/currentUser';
import { keepForOffline } from '@/offline/offlineSteps';
import { forgetReadsInMemory, keptCopy } from '@/offline/queryCache';
import { depositsOfflineSteps } from './offlineSteps';

const entry = (name: string, strategy: string, scopes: string[]) =>
  ({
    name,
    submission: { strategy, referenceScopes: scopes.map((reference) => ({ reference, component: reference })) },
  }) as unknown as DataEntry;

describe('making the deposits available offline', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetReadsInMemory();
  });

  it('keeps the versions a deposits page shows as it opens, under the key it reads them', async () => {
    setCurrentUser({ login: 'ann', email: 'ann@x.org', id: 'ann', isAdmin: false } as never);
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(decodeURIComponent(url));
      return new Response(JSON.stringify([{ id: 'v1' }]), { status: 200 });
    });
    const steps = depositsOfflineSteps(
      'monsore',
      [
        entry('counts', 'OA_VERSIONING', []),
        entry('sites', 'OA_VERSIONING', ['site']),
        entry('logs', 'OA_INSERTION', []),
      ],
      (e) => `Deposits of ${e.name}`,
    );
    // Only the type without scopes shows versions as its page opens.
    expect(steps.map((s) => s.label)).toEqual(['Deposits of counts']);
    expect(await keepForOffline(steps, () => undefined)).toEqual([]);
    expect(asked).toEqual([
      '/api/v1/applications/monsore/filesOnRepository/counts?repositoryId={"requiredAuthorizations":{}}',
    ]);
    forgetReadsInMemory();
    expect((await keptCopy(['application', 'monsore', 'versions', 'counts', {}]))?.value).toEqual([{ id: 'v1' }]);
  });
});
