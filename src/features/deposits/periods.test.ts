import { describe, expect, it } from 'vitest';
import type { Version } from './api';
import { groupByPeriod, kiloBytes } from './periods';

const version = (id: string, from: string, createdAt: string, published = false) =>
  ({ id, name: `${id}.csv`, from, to: from.replace('01T', '30T'), createdAt, published }) as Version;

describe('periods of a dataset', () => {
  it('group versions by period in time order, numbered oldest first', () => {
    const groups = groupByPeriod([
      version('c', '2024-07-01T00:00:00', '2024-08-03'),
      version('b', '2024-06-01T00:00:00', '2024-08-02', true),
      version('a', '2024-06-01T00:00:00', '2024-08-01'),
    ]);
    expect(groups.map((g) => [g.from, g.versions.map((v) => `${v.number}:${v.id}`), g.published?.id])).toEqual([
      ['2024-06-01T00:00:00', ['1:a', '2:b'], 'b'],
      ['2024-07-01T00:00:00', ['1:c'], undefined],
    ]);
  });

  it('show sizes in kB of 1000 bytes', () => {
    expect(kiloBytes(12345)).toBe(12.3);
  });
});
