import { describe, expect, it } from 'vitest';
import { fileNameTemplate } from './fileNameTemplate';

const rule = (source: string, matchPatternScopes: string[]) =>
  ({ pattern: { source, flags: '' }, matchPatternScopes }) as never;
const names: Record<string, string> = {
  projet: 'project',
  chemin: 'site',
  __START_DATE__: 'start',
  __END_DATE__: 'end',
};
const nameOf = (scope: string) => names[scope] ?? scope;

describe('a file name written as a person would', () => {
  it('names each group by what it fills (monsore, acbb)', () => {
    expect(
      fileNameTemplate(rule('(.*)!(.*)!(.*)!(.*).csv', ['projet', 'chemin', '__START_DATE__', '__END_DATE__']), nameOf),
    ).toBe('‹project›!‹site›!‹start›!‹end›.csv');
    expect(fileNameTemplate(rule('(.*)_(.*)_(.*).csv', ['sit_key', '__START_DATE__', '__END_DATE__']), nameOf)).toBe(
      '‹sit_key›_‹start›_‹end›.csv',
    );
  });

  it('reads escapes, anchors and nested groups', () => {
    expect(
      fileNameTemplate(
        rule('^([a-z]+(?:-[a-z]+)?)~(.*)~(.*)\\.csv$', ['projet', '__START_DATE__', '__END_DATE__']),
        nameOf,
      ),
    ).toBe('‹project›~‹start›~‹end›.csv');
  });

  it('gives nothing rather than a regular expression', () => {
    expect(fileNameTemplate(rule('(.*)_(.*)\\.(csv|txt)', ['projet', '__START_DATE__']), nameOf)).toBe(
      '‹project›_‹start›.‹…›',
    );
    expect(fileNameTemplate(rule('[a-z]+_(.*)\\.csv', ['projet']), nameOf)).toBeUndefined();
    expect(fileNameTemplate(rule('(.*)_\\d+\\.csv', ['projet']), nameOf)).toBeUndefined();
    expect(fileNameTemplate(rule('(.*)_(.*', ['projet']), nameOf)).toBeUndefined();
    expect(fileNameTemplate(rule('(.*)|x', ['projet']), nameOf)).toBeUndefined();
  });
});
