import { describe, expect, it } from 'vitest';
import type { AdditionalFileType } from '../configuration/model';
import {
  MAX_ADDITIONAL_FILE_COMMENT,
  checkAdditionalFileForm,
  fileNameTakenBy,
  sameAdditionalFileName,
} from './fileForm';

const NO_TEXTS = { title: {}, description: {} };
const protocols: AdditionalFileType = {
  name: 'protocols',
  i18n: NO_TEXTS,
  fields: [
    { name: 'title', i18n: NO_TEXTS, required: true, checker: null },
    {
      name: 'issued',
      i18n: NO_TEXTS,
      required: false,
      checker: { kind: 'date', pattern: 'dd/MM/yyyy', min: null, max: null, duration: null, multiplicity: 'ONE' },
    },
  ],
};
const filled = {
  fields: { title: ' Birds ', issued: '15/03/2024' },
  comment: ' field protocol ',
  fileName: ' birds.pdf ',
  hasFile: true,
  isNew: true,
};

describe('the additional-file form', () => {
  it('gives the trimmed values, name and comment of a valid form', () => {
    expect(checkAdditionalFileForm(protocols, filled)).toEqual({
      ok: true,
      values: { title: 'Birds', issued: '15/03/2024' },
      fileName: 'birds.pdf',
      comment: 'field protocol',
    });
  });

  it('needs a file when new, and only then', () => {
    const refused = checkAdditionalFileForm(protocols, { ...filled, hasFile: false });
    expect(refused.ok ? [] : refused.problems.map((p) => p.code)).toEqual(['ADDITIONAL_FILE_REQUIRED']);
    expect(checkAdditionalFileForm(protocols, { ...filled, hasFile: false, isNew: false }).ok).toBe(true);
  });

  it('refuses a bad name, a missing or too long comment, and fields their checkers refuse', () => {
    const refused = checkAdditionalFileForm(protocols, {
      ...filled,
      fields: { issued: '2024-03-15' },
      comment: '  ',
      fileName: 'a/b.pdf',
    });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems.map((p) => p.code)).toEqual([
      'INVALID_ADDITIONAL_FILE_NAME',
      'ADDITIONAL_FILE_COMMENT_REQUIRED',
    ]);
    expect(refused.fieldProblems.map((p) => [p.field, p.code])).toEqual([
      ['title', 'requiredValueWithComponent'],
      ['issued', 'invalidDateWithComponent'],
    ]);
    const long = checkAdditionalFileForm(protocols, {
      ...filled,
      comment: 'x'.repeat(MAX_ADDITIONAL_FILE_COMMENT + 1),
    });
    expect(long.ok ? [] : long.problems).toEqual([
      { code: 'COMMENT_TOO_LONG', params: { max: MAX_ADDITIONAL_FILE_COMMENT } },
    ]);
  });

  it('lets a file stored under a name since refused keep it while its other fields are edited, never take it', () => {
    const edited = { ...filled, isNew: false, hasFile: false };
    for (const name of ['.notes', 'con.pdf']) {
      expect(checkAdditionalFileForm(protocols, { ...edited, fileName: name, storedFileName: name }).ok, name).toBe(
        true,
      );
      expect(checkAdditionalFileForm(protocols, { ...edited, fileName: name }).ok, name).toBe(false);
      expect(checkAdditionalFileForm(protocols, { ...edited, fileName: name, storedFileName: 'other.pdf' }).ok).toBe(
        false,
      );
    }
    expect(checkAdditionalFileForm(protocols, { ...edited, fileName: 'a/b.pdf', storedFileName: 'a/b.pdf' }).ok).toBe(
      false,
    );
  });

  it('finds a name already taken, case and outer spaces ignored, but not by the file being edited', () => {
    const stored = [{ id: '1', fileName: 'Birds.pdf' }];
    expect(sameAdditionalFileName(' birds.PDF', 'Birds.pdf')).toBe(true);
    expect(fileNameTakenBy(stored, 'birds.pdf', null)).toEqual(stored[0]);
    expect(fileNameTakenBy(stored, 'birds.pdf', '1')).toBeUndefined();
    expect(fileNameTakenBy(stored, 'fish.pdf', null)).toBeUndefined();
  });
});
