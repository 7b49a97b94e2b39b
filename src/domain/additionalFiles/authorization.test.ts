import { describe, expect, it } from 'vitest';
import type { AdditionalFileType } from '../configuration/model';
import {
  inducedFileOperations,
  normalizeFileAuthorization,
  rightsByType,
  rightsOfTypes,
  withFileDependencies,
} from './authorization';

const types: AdditionalFileType[] = ['protocols', 'maps'].map((name) => ({
  name,
  i18n: { title: {}, description: {} },
  fields: [],
}));

describe('additional-file authorizations', () => {
  it('bring depositing and downloading with deleting', () => {
    expect([...withFileDependencies(['delete'])].sort()).toEqual(['delete', 'depot', 'extraction']);
    expect([...withFileDependencies(['depot'])]).toEqual(['depot']);
    expect([...inducedFileOperations(['delete', 'admin'])].sort()).toEqual(['depot', 'extraction']);
    expect(inducedFileOperations(['depot']).size).toBe(0);
  });

  it('turn rights by operation into rights by type and back', () => {
    const rights = { admin: ['maps'], depot: ['protocols', 'maps'], delete: ['maps'] };
    expect(rightsByType(rights)).toEqual({ maps: ['admin', 'depot', 'delete'], protocols: ['depot'] });
    expect(rightsOfTypes(rightsByType(rights))).toEqual({
      admin: ['maps'],
      depot: ['maps', 'protocols'],
      extraction: ['maps'],
      delete: ['maps'],
    });
  });

  it('keep a valid authorization with its dependencies', () => {
    expect(
      normalizeFileAuthorization(types, {
        name: ' field team ',
        usersId: ['u1'],
        additionalFiles: { delete: ['protocols'], admin: [] },
      }),
    ).toEqual({
      ok: true,
      name: 'field team',
      rights: { depot: ['protocols'], extraction: ['protocols'], delete: ['protocols'] },
    });
  });

  it('name every problem', () => {
    const result = normalizeFileAuthorization(types, {
      name: ' ',
      usersId: [],
      additionalFiles: { read: ['maps'], depot: ['photos'] },
    });
    expect(result.ok ? [] : result.problems.map((p) => p.code)).toEqual([
      'NO_AUTHORIZATION_NAME',
      'NO_AUTHORIZATION_USER',
      'UNKNOWN_OPERATION',
      'UNKNOWN_ADDITIONAL_FILE_TYPE',
    ]);
    const empty = normalizeFileAuthorization(types, { name: 'x', usersId: ['u1'], additionalFiles: {} });
    expect(empty.ok ? [] : empty.problems.map((p) => p.code)).toEqual(['NOTHING_GRANTED']);
  });
});
