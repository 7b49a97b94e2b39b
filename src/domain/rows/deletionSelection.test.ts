import { describe, expect, it } from 'vitest';
import { deletesByKeys } from './deletionSelection';

describe('deletesByKeys', () => {
  it('accepts rowIds or naturalKeys alone', () => {
    expect(deletesByKeys({ rowIds: ['r'] })).toBe(true);
    expect(deletesByKeys({ naturalKeys: ['k'], rowIds: [] })).toBe(true);
    expect(deletesByKeys({ naturalKeys: ['k'], componentFilters: [] })).toBe(true);
  });

  it('refuses filters, with or without keys, both selectors, and a query selecting nothing', () => {
    const filter = { componentKey: 'note', filters: ['calm'] };
    expect(deletesByKeys({ componentFilters: [filter] })).toBe(false);
    expect(deletesByKeys({ naturalKeys: ['k'], componentFilters: [filter] })).toBe(false);
    expect(deletesByKeys({})).toBe(false);
    expect(deletesByKeys({ rowIds: [], naturalKeys: [] })).toBe(false);
    expect(deletesByKeys({ rowIds: ['r'], naturalKeys: ['k'] })).toBe(false);
  });
});
