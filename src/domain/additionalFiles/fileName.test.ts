import { describe, expect, it } from 'vitest';
import { MAX_ADDITIONAL_FILE_NAME_LENGTH, isValidAdditionalFileName, proposedAdditionalFileName } from './fileName';

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
});
