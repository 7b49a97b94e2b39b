import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './timeOrderedId.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('makes version 7 UUIDs that sort in the order they were made, within a millisecond and across many', () => {
    const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the order past 4,096 ids in one millisecond and when the clock goes back', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId(now));
    ids.push(timeOrderedId(now - 5_000));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0].slice(0, 13).replace('-', '')).toBe(now.toString(16).padStart(12, '0'));
  });
});
