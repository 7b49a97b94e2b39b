import { describe, expect, it } from 'vitest';
import type { Submission } from '../configuration/model';
import { readDepositTarget, type DepositTarget } from './depositTargets';

const submission = (source: string, groupCount: number, matchPatternScopes: string[]): Submission => ({
  strategy: 'OA_VERSIONING',
  referenceScopes: [],
  timeScope: null,
  fileName: { pattern: { source, groupCount }, matchPatternScopes },
});

const targets: DepositTarget[] = [
  { dataType: 'counts', submission: submission('counts_(.*)_(.*)\\.csv', 2, ['site', '__START_DATE__']) },
  { dataType: 'any', submission: submission('(.*)~(.*)\\.csv', 2, ['site', 'plot']) },
  { dataType: 'other', submission: submission('(.*)~(.*)\\.csv', 2, ['site', 'plot']) },
];

describe('readDepositTarget', () => {
  it('gives the one data type whose pattern the name follows, with the dataset the name gives', () => {
    expect(readDepositTarget(targets, 'counts_oir_01-06-2024.csv')).toEqual({
      kind: 'found',
      dataType: 'counts',
      scope: { site: 'oir' },
      from: '2024-06-01T00:00:00',
    });
  });

  it('names no data type when no pattern, or several, accept the name', () => {
    expect(readDepositTarget(targets, 'notes.csv')).toEqual({ kind: 'none' });
    expect(readDepositTarget(targets, 'oir~p1.csv')).toEqual({ kind: 'several', dataTypes: ['any', 'other'] });
  });
});
