import { describe, expect, it } from 'vitest';
import { errorI18n, placeholders, readErrorCatalog } from './errorCatalog.testing';
import { REFUSAL_CODES } from '@/domain/errors/refusalCodes';
import { exceptionMessages } from './exceptionMessages';
import { messageValues } from '../i18n/messageValues';
import { describeProblem } from '../i18n/problems';

describe('exception messages', () => {
  it('give every code a French text with the same placeholders as the English one', () => {
    const french = readErrorCatalog('fr');
    for (const [code, descriptor] of Object.entries(exceptionMessages)) {
      expect(french[descriptor.id], code).toBeTruthy();
      expect(placeholders(french[descriptor.id]), code).toEqual(placeholders(descriptor.message!));
    }
  });

  it('give every code the server refuses with a text', () => {
    expect(REFUSAL_CODES.filter((code) => !exceptionMessages[code])).toEqual([]);
  });

  it('say how long to wait after too many failed attempts, in seconds or minutes', () => {
    const say = (locale: string, values: Record<string, unknown>) =>
      errorI18n(locale)._({ ...exceptionMessages.TOO_MANY_ATTEMPTS, values });
    expect(say('en', { wait: 1, unit: 'seconds' })).toBe('Too many failed attempts. Try again in 1 second.');
    expect(say('en', { wait: 15, unit: 'minutes' })).toBe('Too many failed attempts. Try again in 15 minutes.');
    expect(say('fr', { wait: 8, unit: 'seconds' })).toBe('Trop de tentatives manquées. Réessayez dans 8 secondes.');
  });

  it('say how large a page may be, and what to do for more', () => {
    const say = (locale: string, params: Record<string, unknown>) =>
      errorI18n(locale)._({ ...exceptionMessages.BAD_ROW_QUERY, values: messageValues(params) });
    expect(say('en', { reason: 'limitTooLarge', max: 1000 })).toBe(
      'A page holds at most 1,000 rows; without a limit, every row is sent.',
    );
    expect(say('fr', { reason: 'limitTooLarge', max: 1000 })).toBe(
      'Une page tient au plus 1\u202f000 lignes\u00a0; sans limite, toutes les lignes sont envoyées.',
    );
    expect(say('en', { reason: 'notJson' })).toBe('The query is not well formed.');
  });

  it('say that the moved lines named go on, and name them alone in refusals kept before', () => {
    const say = (params: Record<string, unknown>) =>
      errorI18n('en')._({ ...exceptionMessages.MOVED_REFERENCED_ROWS, values: messageValues(params) });
    expect(say({ rows: 'a, b, c, d, e', more: 'yes' })).toContain('point to them (a, b, c, d, e, …):');
    expect(say({ rows: 'a', more: 'no' })).toContain('point to them (a):');
    expect(say({ rows: 'a' })).toContain('point to them (a):');
  });

  it('cite the unknown names of a grant, counting them all', () => {
    const say = (locale: string, params: Record<string, unknown>) =>
      errorI18n(locale)._({ ...exceptionMessages.UNKNOWN_USERS, values: messageValues(params) });
    expect(say('en', { users: ['ana'], count: 1 })).toBe('This user does not exist: ana.');
    expect(say('en', { users: ['ana', 'bo'], count: 120 })).toBe('These 120 users do not exist: ana, bo.');
    expect(say('fr', { users: ['ana', 'bo'], count: 2 })).toBe('Ces 2 utilisateurs n’existent pas\u00a0: ana, bo.');
  });

  it('count the overlapping versions a viewer may not read, naming the others', () => {
    const say = (locale: string, params: Record<string, unknown>) =>
      describeProblem(errorI18n(locale), { code: 'overlappingunreadablepublishedversion', params });
    expect(say('en', { files: [], named: 0, count: 1 })).toBe(
      'A published version of this dataset that you may not read covers part of this period.',
    );
    expect(say('en', { files: ['a.csv', 'b.csv'], named: 2, count: 3 })).toBe(
      '3 published versions of this dataset that you may not read cover part of this period, as do a.csv, b.csv.',
    );
    expect(say('fr', { files: ['a.csv'], named: 1, count: 2 })).toBe(
      '2 versions publiées de ce jeu de données, que vous ne pouvez pas lire, couvrent une partie de cette période, de même que a.csv.',
    );
  });
});
