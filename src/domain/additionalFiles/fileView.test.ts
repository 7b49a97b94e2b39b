import { describe, expect, it } from 'vitest';
import { binarySize, linkStatus } from './fileView';

describe('the file list', () => {
  it('counts sizes in units of 1024', () => {
    expect(binarySize(0)).toEqual({ value: 0, unit: 'byte' });
    expect(binarySize(1023)).toEqual({ value: 1023, unit: 'byte' });
    expect(binarySize(1024)).toEqual({ value: 1, unit: 'kilobyte' });
    expect(binarySize(1536)).toEqual({ value: 1.5, unit: 'kilobyte' });
    expect(binarySize(5 * 1024 * 1024)).toEqual({ value: 5, unit: 'megabyte' });
    expect(binarySize(3 * 1024 ** 4)).toEqual({ value: 3072, unit: 'gigabyte' });
  });

  it('tags a file kept for the application, attached to data, or to nothing', () => {
    expect(linkStatus({ forApplication: true, associates: { counts: { scopes: {} } } })).toBe('application');
    expect(linkStatus({ forApplication: false, associates: { counts: { scopes: {} } } })).toBe('data');
    expect(linkStatus({ forApplication: false, associates: {} })).toBe('none');
  });
});
