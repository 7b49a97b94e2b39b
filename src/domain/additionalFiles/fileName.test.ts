import { describe, expect, it } from 'vitest';
import {
  MAX_ADDITIONAL_FILE_NAME_LENGTH,
  additionalFileNameKey,
  isRestorableAdditionalFileName,
  isValidAdditionalFileName,
  normalizeAdditionalFileName,
  proposedAdditionalFileName,
} from './fileName';

describe('additional file names', () => {
  it('accept letters of any script, digits, underscore, hyphen, dot and space', () => {
    for (const name of [
      'protocol.pdf',
      'Protocole de terrain v2.pdf',
      'relevé_2024-06.odt',
      'карта.png',
      '2024',
      'a',
    ]) {
      expect(isValidAdditionalFileName(name), name).toBe(true);
    }
  });

  it('refuse other characters, empty or meaningless names and names too long', () => {
    for (const name of [
      '',
      '   ',
      '.',
      '..',
      '-_ .',
      'a/b.pdf',
      '..\\secret',
      'x:y',
      'file(1).pdf',
      'tab\there',
      'new\nline',
      'a'.repeat(MAX_ADDITIONAL_FILE_NAME_LENGTH + 1),
    ]) {
      expect(isValidAdditionalFileName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('judge the trimmed name', () => {
    expect(isValidAdditionalFileName('  protocol.pdf  ')).toBe(true);
  });

  it('propose a valid name for a chosen file', () => {
    expect(proposedAdditionalFileName('protocole (v2).pdf')).toBe('protocole _v2_.pdf');
    expect(proposedAdditionalFileName('plan.pdf')).toBe('plan.pdf');
    expect(proposedAdditionalFileName('()')).toBe('');
    expect(proposedAdditionalFileName('')).toBe('');
  });

  it('refuse a leading dot and the device names of Windows, with or without an extension, whatever their case', () => {
    for (const name of [
      '.htaccess',
      '.hidden.pdf',
      ' .pdf',
      ...['CON', 'PRN', 'AUX', 'NUL', 'COM1', 'COM9', 'LPT1', 'LPT9'],
      'con.pdf',
      'Nul.tar.gz',
      'aux .txt',
      'lpt3.',
      'com7.PDF',
    ]) {
      expect(isValidAdditionalFileName(name), JSON.stringify(name)).toBe(false);
    }
    for (const name of [
      'console.pdf',
      'COM10.pdf',
      'COM0.pdf',
      'LPT.pdf',
      'aux_notes.pdf',
      'a.con',
      'null.pdf',
      'v1.2.pdf',
    ]) {
      expect(isValidAdditionalFileName(name), name).toBe(true);
    }
  });

  it('still restore, from a backup, the names stored before those two rules', () => {
    expect(isRestorableAdditionalFileName('.notes')).toBe(true);
    expect(isRestorableAdditionalFileName('con.pdf')).toBe(true);
    expect(isRestorableAdditionalFileName('a/b.pdf')).toBe(false);
    expect(isRestorableAdditionalFileName('..')).toBe(false);
  });

  it('compose names, so that one name typed or pasted in either Unicode form has one key', () => {
    const composed = 'relev\u00e9 \u00c9t\u00e9.pdf';
    const decomposed = 'releve\u0301 E\u0301te\u0301.pdf';
    expect(normalizeAdditionalFileName(` ${decomposed} `)).toBe(composed);
    expect(additionalFileNameKey(decomposed)).toBe(additionalFileNameKey(composed));
    expect(additionalFileNameKey(decomposed)).toBe('relev\u00e9 \u00e9t\u00e9.pdf');
  });

  it('propose a name without its leading dots, and with a mark before a device name', () => {
    expect(proposedAdditionalFileName('.notes.txt')).toBe('notes.txt');
    expect(proposedAdditionalFileName('CON.pdf')).toBe('_CON.pdf');
    expect(proposedAdditionalFileName('E\u0301te\u0301.pdf')).toBe('\u00c9t\u00e9.pdf');
  });
});
