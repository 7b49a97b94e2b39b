import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { formatSize } from './formatSize';

const reader = (locale: string) => setupI18n({ locale, messages: { [locale]: {} } });
// French puts a no-break space between number and unit.
const size = (locale: string, bytes: number) => formatSize(reader(locale), bytes).replace(/[\u00a0\u202f]/g, ' ');

describe('file sizes', () => {
  it('read as words for bytes, with their plural, and as short units above', () => {
    expect(size('en', 30)).toBe('30 bytes');
    expect(size('en', 1)).toBe('1 byte');
    expect(size('fr', 30)).toBe('30 octets');
    expect(size('en', 3 * 1024)).toBe('3 kB');
    expect(size('fr', 1536)).toBe('1,5 ko');
  });
});
