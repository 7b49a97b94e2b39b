/** Label escaping and composite keys, as the format reference §9.1 describes them. */
import { describe, expect, it } from 'vitest';
import {
  compositeKey,
  escapeLabel,
  formatStoredDate,
  hierarchicalKey,
  isLabel,
  isUnderHierarchicalKey,
  LabelError,
  manyCompositeKey,
  splitOnCommas,
  withoutLeadingNullParts,
} from './index';

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

describe('escapeLabel, more cases', () => {
  it('rewrites runs of underscores left by an escaped NULL_KEY', () => {
    expect(escapeLabel('a NULL_KEY b')).toBe('a______b');
    expect(escapeLabel('NULL_KEY  b')).toBe('NULL_KEY__b');
    expect(escapeLabel('x  NULL_KEY  y')).toBe('x__NULL_KEY__y');
  });

  it('keeps plain labels, even long runs of digits, and refuses them over 256 characters', () => {
    expect(escapeLabel('site_000123')).toBe('site_000123');
    expect(escapeLabel('a'.repeat(256))).toBe('a'.repeat(256));
    expect(() => escapeLabel('a'.repeat(257))).toThrow(LabelError);
  });

  it('spells characters outside its table by their code and escapes upper-case letters into lower case', () => {
    expect(escapeLabel('日')).toBe('U65E5');
    expect(escapeLabel('Plateforme P1')).toBe('plateforme_p1');
    expect(escapeLabel('C+')).toBe('cPLUSSIGN');
    expect(escapeLabel('%')).toBe('PERCENTSIGN');
  });

  it('reports why a text cannot be a label', () => {
    try {
      escapeLabel('--');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(LabelError);
      expect((error as LabelError).problem).toBe('empty');
    }
    expect(isLabel('abc_D1')).toBe(true);
    expect(isLabel('a.b')).toBe(false);
  });
});

describe('stored dates and lists', () => {
  it('formats stored dates with their pattern', () => {
    expect(formatStoredDate('date:1984-06-01T00:00:00:MM/yyyy')).toBe('06/1984');
    expect(formatStoredDate('not a date')).toBeNull();
    expect(compositeKey(['date:1984-06-01T00:00:00:MM/yyyy'])).toBe('06_1984');
  });

  it('splits on commas as Java does', () => {
    expect(splitOnCommas('')).toEqual(['']);
    expect(splitOnCommas('a,,b,,')).toEqual(['a', '', 'b']);
  });
});

describe('hierarchical keys', () => {
  it('joins the label <dataName>K<naturalKey> after the parent key', () => {
    expect(hierarchicalKey('especes', 'lpf')).toBe('especesKlpf');
    expect(hierarchicalKey('sites', 'oir__p1', 'type_de_sitesKplateforme')).toBe(
      'type_de_sitesKplateforme.sitesKoir__p1',
    );
  });

  it('tells whether a key lies under another', () => {
    expect(isUnderHierarchicalKey('aKx.bKy', 'aKx')).toBe(true);
    expect(isUnderHierarchicalKey('aKx', 'aKx')).toBe(true);
    expect(isUnderHierarchicalKey('aKxy.bKy', 'aKx')).toBe(false);
  });

  it('drops leading NULL_KEY parts', () => {
    expect(withoutLeadingNullParts('NULL_KEY__NULL_KEY__oir')).toBe('oir');
    expect(withoutLeadingNullParts('oir__NULL_KEY')).toBe('oir__NULL_KEY');
  });
});
