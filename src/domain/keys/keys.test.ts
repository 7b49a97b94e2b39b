/** Label escaping and composite keys, as the format reference §9.1 describes them. */
import { describe, expect, it } from 'vitest';
import { compositeKey, escapeLabel, manyCompositeKey } from './naturalKeys';

describe('escapeLabel', () => {
  it('lower-cases, strips accents, turns spaces into _ and drops hyphens', () => {
    expect(escapeLabel('Étang Sud')).toBe('etang_sud');
    expect(escapeLabel('Haut-Rhône')).toBe('hautrhone');
    expect(escapeLabel('already_ok_1')).toBe('already_ok_1');
  });

  it('spells other characters by their Unicode name', () => {
    expect(escapeLabel('08:45:00')).toBe('08COLON45COLON00');
    expect(escapeLabel('a.b/c')).toBe('aFULLSTOPbSOLIDUSc');
    expect(escapeLabel("l'eau")).toBe('lAPOSTROPHEeau');
    expect(escapeLabel('µmol')).toBe('MICROSIGNmol');
    expect(escapeLabel('20°C')).toBe('20DEGREESIGNc');
  });

  it('keeps a label that is already escaped', () => {
    expect(escapeLabel('08COLON45')).toBe('08COLON45');
    expect(escapeLabel('NULL_KEY')).toBe('NULL_KEY');
    expect(escapeLabel('Mixed')).toBe('mixed');
  });

  it('refuses empty and over-long labels', () => {
    expect(() => escapeLabel('')).toThrowError(/empty/);
    expect(() => escapeLabel('-')).toThrowError(/empty/);
    expect(() => escapeLabel('x'.repeat(257))).toThrowError(/256/);
  });
});

describe('compositeKey', () => {
  it('joins escaped parts with __, empty parts being NULL_KEY', () => {
    expect(compositeKey(['Site A', 'P1'])).toBe('site_a__p1');
    expect(compositeKey(['', 'P1'])).toBe('NULL_KEY__p1');
    expect(compositeKey(['Site A', ''])).toBe('site_a__NULL_KEY');
    expect(compositeKey(['', ''])).toBe('');
  });

  it('writes checked dates as their pattern shows them', () => {
    expect(compositeKey(['date:2020-01-22T08:45:00:dd/MM/yyyy', 'leman'])).toBe('22_01_2020__leman');
    expect(compositeKey(['date:2020-01-22T08:45:00:HH:mm:ss'])).toBe('08COLON45COLON00');
  });
});

describe('manyCompositeKey', () => {
  it('builds one key per position of comma-separated parts', () => {
    expect(manyCompositeKey(['A,B', 'x, y'])).toBe('a__x,b__y');
    expect(manyCompositeKey(['A,', ',y'])).toBe('a__NULL_KEY,NULL_KEY__y');
    expect(manyCompositeKey([',', ''])).toBe('');
  });
});
