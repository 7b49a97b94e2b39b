import type { PersistedQuery } from '@tanstack/query-persist-client-core';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '@/contract/version';
import { currentKeptRead, KEPT_READ_MIGRATIONS, UNRECORDED_VERSION } from './keptReadMigrations';

const kept = (data: unknown): PersistedQuery => ({
  buster: '',
  queryKey: ['application', 'monsore', 'view'],
  queryHash: '["application","monsore","view"]',
  state: {
    data,
    dataUpdateCount: 1,
    dataUpdatedAt: 1,
    error: null,
    errorUpdateCount: 0,
    errorUpdatedAt: 0,
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchMeta: null,
    isInvalidated: false,
    status: 'success',
    fetchStatus: 'idle',
  },
});

describe('kept reads of another contract version', () => {
  it('serves a copy of the running version, or kept before versions were recorded, as it is', () => {
    const copy = kept({ title: 'Monsore' });
    expect(currentKeptRead(copy, CONTRACT_VERSION)).toBe(copy);
    expect(currentKeptRead(copy)).toBe(copy);
    expect(UNRECORDED_VERSION).toBeLessThanOrEqual(CONTRACT_VERSION);
  });

  it('applies each registered step from the copy’s version to the running one, in order', () => {
    const steps = {
      1: (data: unknown) => ({ ...(data as object), valueLabels: {} }),
      2: (data: unknown) => ({ ...(data as object), orderStrict: false }),
    };
    const copy = kept({ title: 'Monsore' });
    expect(currentKeptRead(copy, 1, { current: 3, steps })?.state.data).toEqual({
      title: 'Monsore',
      valueLabels: {},
      orderStrict: false,
    });
    expect(currentKeptRead(copy, 2, { current: 3, steps })?.state.data).toEqual({
      title: 'Monsore',
      orderStrict: false,
    });
    expect(copy.state.data).toEqual({ title: 'Monsore' });
  });

  it('does not serve a copy of a later version, nor one no step leads from', () => {
    expect(currentKeptRead(kept({}), CONTRACT_VERSION + 1)).toBeUndefined();
    expect(currentKeptRead(kept({}), 1, { current: 3, steps: { 2: (data) => data } })).toBeUndefined();
  });

  it('has a step from every earlier version to the running one', () => {
    for (let version = UNRECORDED_VERSION; version < CONTRACT_VERSION; version++)
      expect(KEPT_READ_MIGRATIONS[version], `step from version ${version}`).toBeTypeOf('function');
  });
});
