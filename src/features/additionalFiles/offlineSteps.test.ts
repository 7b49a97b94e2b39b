import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setCurrentUser } from '@/offline/currentUser';
import { keepForOffline } from '@/offline/offlineSteps';
import { forgetReadsInMemory, keptCopy } from '@/offline/queryCache';
import { additionalFilesOfflineSteps } from './offlineSteps';

/** The server: each path answers its own text; the refused types answer 403. */
function serve(refused: string[] = []) {
  vi.stubGlobal('fetch', async (url: string) => {
    const path = decodeURIComponent(url.replace('/api/v1/applications/notebook/', ''));
    if (refused.some((type) => path.startsWith(`additionalFiles/${type}`)))
      return new Response(JSON.stringify({ code: 'NO_RIGHT_FOR_ADDITIONAL_FILES' }), { status: 403 });
    return new Response(JSON.stringify({ answerTo: path }), { status: 200 });
  });
}

const keptAt = async (queryKey: readonly unknown[]) => (await keptCopy<{ answerTo: string }>(queryKey))?.value.answerTo;

/** The selection a type's list asks for as it opens, as its key names it. */
const opening = (type: string, limit: number) =>
  `params=${encodeURIComponent(JSON.stringify({ additionalFilesInfos: { [type]: { fieldFilters: [] } }, offset: 0, limit }))}`;

const types = [
  { name: 'protocols', label: 'Protocols' },
  { name: 'photos', label: 'Photos' },
];

describe('making the additional files available offline', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    forgetReadsInMemory();
  });

  it("keeps the types and each type's first page under the keys FilesPage and FileTypesPage read", async () => {
    setCurrentUser({ login: 'ann', email: 'ann@x.org', id: 'ann', isAdmin: false } as never);
    serve();
    const steps = additionalFilesOfflineSteps('notebook', types, { files: 'Additional files' });
    expect(steps.map((s) => s.label)).toEqual(['Additional files', 'Protocols', 'Photos']);
    expect(await keepForOffline(steps, () => undefined)).toEqual([]);
    forgetReadsInMemory();

    expect(await keptAt(['application', 'notebook', 'additionalFiles', { grantable: false }])).toBe('additionalFiles');
    for (const type of ['protocols', 'photos']) {
      expect(await keptAt(['application', 'notebook', 'additionalFiles', type, opening(type, 30)])).toMatch(
        new RegExp(`^additionalFiles/${type}\\?params=.*"offset":0,"limit":30}$`),
      );
      // The file form's choices and names: the same list, no file.
      expect(await keptAt(['application', 'notebook', 'additionalFiles', type, opening(type, 0)])).toMatch(
        /"limit":0}$/,
      );
    }
  });

  it('skips and names a type the server refuses', async () => {
    setCurrentUser({ login: 'bob', email: 'bob@x.org', id: 'bob', isAdmin: false } as never);
    serve(['photos']);
    const skipped = await keepForOffline(
      additionalFilesOfflineSteps('notebook', types, { files: 'Additional files' }),
      () => undefined,
    );
    expect(skipped.map((s) => s.label)).toEqual(['Photos']);
  });

  it('has nothing to keep for an application without additional files', () => {
    expect(additionalFilesOfflineSteps('notebook', [], { files: 'Additional files' })).toEqual([]);
  });
});
