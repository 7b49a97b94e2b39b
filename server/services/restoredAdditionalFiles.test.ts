import { describe, expect, it } from 'vitest';
import { restorableFileBytes } from './restoredAdditionalFiles';

describe('the largest additional file a restore takes', () => {
  it('is what the instance accepts on upload, never less than a default instance held', () => {
    const MiB = 1024 * 1024;
    expect(restorableFileBytes(100 * MiB)).toBe(200 * MiB);
    expect(restorableFileBytes(1024 * MiB)).toBe(1024 * MiB);
  });
});
