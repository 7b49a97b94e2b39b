import { describe, expect, it } from 'vitest';
import { datasetOf } from './dataset';

describe('datasetOf', () => {
  it('names a deposit by its scope keys, then its period', () => {
    const summary = { scope: '{"site":"lac_blanc","plot":"p1"}', period: '2024-01-01 – 2024-12-31' };
    expect(datasetOf({ kind: 'deposit.upload', summary })).toBe('lac_blanc · p1 · 2024-01-01 – 2024-12-31');
    expect(datasetOf({ kind: 'deposit.delete', summary: { scope: '{}', period: '' } })).toBeUndefined();
  });

  it('leaves other changes, and deposits kept before their dataset was recorded, unnamed', () => {
    expect(datasetOf({ kind: 'reference.upload', summary: { scope: '{"site":"x"}' } })).toBeUndefined();
    expect(datasetOf({ kind: 'deposit.publish', summary: {} })).toBeUndefined();
  });

  it('names the change without its scope when an imported summary does not hold JSON', () => {
    expect(
      datasetOf({ kind: 'deposit.upload', summary: { scope: 'not json', period: '2024-01-01 – 2024-02-01' } }),
    ).toBe('2024-01-01 – 2024-02-01');
  });
});
