import { describe, expect, it } from 'vitest';
import { cellText, isoOfStoredDate, naturalKeyInReference, naturalKeyOfHierarchicalKey } from './cellText';

describe('stored values as text', () => {
  it('gives dates back in their own pattern', () => {
    expect(cellText('date:1984-12-25T00:00:00:dd/MM/yyyy', null)).toBe('25/12/1984');
    expect(cellText('date:2020-01-22T08:45:00:dd/MM/yyyy HH:mm', null)).toBe('22/01/2020 08:45');
    expect(isoOfStoredDate('date:1984-12-25T00:00:00:dd/MM/yyyy')).toBe('1984-12-25T00:00:00');
    expect(isoOfStoredDate('plain')).toBeUndefined();
  });

  it('gives references back as the natural key of their row', () => {
    const checker = {
      kind: 'reference',
      reference: 'sites',
      isParent: false,
      isRecursive: false,
      multiplicity: 'ONE',
    } as const;
    expect(cellText('type_de_sitesKplateforme.sitesKoir', checker)).toBe('oir');
    expect(cellText(['sitesKa', 'sitesKb'], { ...checker, multiplicity: 'MANY' })).toBe('a,b');
    expect(naturalKeyOfHierarchicalKey('especesKlpf')).toBe('lpf');
    // A natural key (as answers give them) stays as it is, even when it holds a K.
    expect(cellText('NULL_KEY__scarff', { ...checker, reference: 'sites' })).toBe('NULL_KEY__scarff');
    expect(naturalKeyInReference('blocKb1.blocKb1_1', 'bloc')).toBe('b1_1');
  });

  it('writes numbers, booleans and empty values plainly', () => {
    expect(cellText(12.5, null)).toBe('12.5');
    expect(cellText(true, null)).toBe('true');
    expect(cellText(null, null)).toBe('');
  });

  it('keeps a list of objects one JSON document (joined by commas, it was not JSON)', () => {
    const groups = [
      { header: 'a', value: '1' },
      { header: 'b', value: '2' },
    ];
    expect(JSON.parse(cellText(groups, null))).toEqual(groups);
  });
});
