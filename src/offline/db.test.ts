import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { TerrainDatabase } from './db';

describe('the browser database', () => {
  it('keeps settings across reopening', async () => {
    const first = new TerrainDatabase('settings-test');
    await first.settings.put({ key: 'lastReachedAt', value: 1234 });
    first.close();
    const second = new TerrainDatabase('settings-test');
    expect((await second.settings.get('lastReachedAt'))?.value).toBe(1234);
    second.close();
  });
});
