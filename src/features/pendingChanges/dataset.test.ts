import { describe, expect, it } from 'vitest';
import { datasetOf } from './dataset';

const day = (iso: string) => `day ${iso}`;

describe('datasetOf', () => {
  it('names a deposit by its scope keys, then its period’s days', () => {
    const summary = {
      scope: '{"projet":"projetsKalps","site":"projetsKalps.sitesKlac_blanc"}',
      from: '2024-06-01',
      to: '2024-06-30',
    };
    expect(datasetOf({ kind: 'deposit.upload', summary }, day)).toBe(
      'alps · lac_blanc · day 2024-06-01 – day 2024-06-30',
    );
    expect(datasetOf({ kind: 'deposit.delete', summary: { scope: '{"site":"lac_blanc"}' } }, day)).toBe('lac_blanc');
    expect(datasetOf({ kind: 'deposit.publish', summary: { scope: '{}' } }, day)).toBeUndefined();
  });

  it('keeps the period text of deposits kept before the days were recorded', () => {
    const summary = { scope: '{"site":"x"}', period: '2024-01-01 – 2024-12-31' };
    expect(datasetOf({ kind: 'deposit.upload', summary }, day)).toBe('x · 2024-01-01 – 2024-12-31');
  });

  it('leaves other changes, and publications kept before their dataset was recorded, unnamed', () => {
    expect(datasetOf({ kind: 'reference.upload', summary: { scope: '{"site":"x"}' } }, day)).toBeUndefined();
    expect(datasetOf({ kind: 'deposit.publish', summary: {} }, day)).toBeUndefined();
  });

  it('names the change without its scope when an imported summary does not hold JSON', () => {
    const summary = { scope: 'not json', from: '2024-01-01', to: '2024-02-01' };
    expect(datasetOf({ kind: 'deposit.upload', summary }, day)).toBe('day 2024-01-01 – day 2024-02-01');
  });
});
