import { describe, expect, it } from 'vitest';
import { filterStillCovers, type RowFilter } from './access';
import type { Grant } from './authorization';

const grant = (scopes: Record<string, string[]>, from: string | null = null, to: string | null = null): Grant => ({
  operations: ['extraction'],
  scopes,
  from,
  to,
});
const some = (...grants: Grant[]): RowFilter => ({ kind: 'some', grants });
const ALL: RowFilter = { kind: 'all' };
const NONE: RowFilter = { kind: 'none' };

describe('whether rights still cover what an export was started with', () => {
  const north = grant({ site: ['north', 'east'] }, '2020-01-01', '2020-12-31');

  it('holds while every grant stays, whatever order its scopes and keys come in', () => {
    expect(filterStillCovers(ALL, ALL)).toBe(true);
    expect(filterStillCovers(ALL, some(north))).toBe(true);
    expect(filterStillCovers(some(north), some(north))).toBe(true);
    expect(filterStillCovers(some(grant({ site: ['east', 'north'] }, '2020-01-01', '2020-12-31')), some(north))).toBe(
      true,
    );
    expect(filterStillCovers(some(grant({ plot: ['a'] }), north), some(north))).toBe(true);
  });

  it('fails once a grant is withdrawn, narrowed or changed, or every right is', () => {
    expect(filterStillCovers(NONE, ALL)).toBe(false);
    expect(filterStillCovers(NONE, some(north))).toBe(false);
    expect(filterStillCovers(some(north), ALL)).toBe(false);
    expect(filterStillCovers(some(), some(north))).toBe(false);
    expect(filterStillCovers(some(grant({ site: ['north'] }, '2020-01-01', '2020-12-31')), some(north))).toBe(false);
    expect(filterStillCovers(some(grant({ site: ['north', 'east'] }, '2020-01-01', '2020-06-30')), some(north))).toBe(
      false,
    );
    // Widened counts as changed: a doubt is not worth it.
    expect(filterStillCovers(some(grant({ site: ['north', 'east'] })), some(north))).toBe(false);
  });
});
