import { describe, expect, it } from 'vitest';
import { downloadTarget } from './streamedSave';

describe('where a download is kept while it arrives', () => {
  it('is a file of the device when the browser writes one from the page', () => {
    expect(downloadTarget({ writableFiles: true })).toBe('disk');
    expect(downloadTarget({ writableFiles: true, expectedBytes: 5e9, free: 6e9 })).toBe('disk');
  });

  it('is the memory where the page cannot write files (older Safari)', () => {
    expect(downloadTarget({ writableFiles: false })).toBe('memory');
    expect(downloadTarget({ writableFiles: false, expectedBytes: 10, free: 6e9 })).toBe('memory');
  });

  it('is the memory when the announced size exceeds the room the browser grants', () => {
    expect(downloadTarget({ writableFiles: true, expectedBytes: 6e9 + 1, free: 6e9 })).toBe('memory');
  });

  it('is a file when the size or the room is unknown: a full device is caught when it refuses', () => {
    expect(downloadTarget({ writableFiles: true, free: 0 })).toBe('disk');
    expect(downloadTarget({ writableFiles: true, expectedBytes: 6e9 })).toBe('disk');
  });
});
