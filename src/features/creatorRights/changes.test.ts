import { describe, expect, it } from 'vitest';
import type { AuthenticatedUser } from '@/domain/accounts/user';
import {
  addPattern,
  changesOf,
  invalidPatterns,
  removePattern,
  roleRequests,
  shownAdmin,
  shownPatterns,
  toggleAdmin,
} from './changes';

const user = (login: string, authorizations: string[], terrainAdmin = false) =>
  ({ login, authorizations, terrainAdmin }) as AuthenticatedUser;
const marie = user('marie', ['ola_.*']);
const paul = user('paul', [], true);

describe('creator rights changes', () => {
  it('collect additions and removals of patterns', () => {
    let changes = addPattern({}, marie, ' fn_.* ');
    changes = removePattern(changes, marie, 'ola_.*');
    expect(changes).toEqual({ marie: { added: ['fn_.*'], removed: ['ola_.*'] } });
    expect(shownPatterns(changes, marie)).toEqual(['fn_.*']);
  });

  it('cancel a change by undoing it', () => {
    let changes = addPattern({}, marie, 'fn_.*');
    changes = removePattern(changes, marie, 'fn_.*');
    expect(changes).toEqual({});
    changes = removePattern({}, marie, 'ola_.*');
    changes = addPattern(changes, marie, 'ola_.*');
    expect(changes).toEqual({});
    changes = toggleAdmin({}, paul, false);
    expect(shownAdmin(changes, paul)).toBe(false);
    expect(toggleAdmin(changes, paul, true)).toEqual({});
  });

  it('ignore patterns already there or empty', () => {
    expect(addPattern({}, marie, 'ola_.*')).toEqual({});
    expect(addPattern({}, marie, '  ')).toEqual({});
    expect(removePattern({}, marie, 'unknown')).toEqual({});
  });

  it('become removals first, then grants', () => {
    let changes = addPattern({}, marie, 'fn_.*');
    changes = removePattern(changes, marie, 'ola_.*');
    changes = toggleAdmin(changes, paul, false);
    changes = toggleAdmin(changes, marie, true);
    expect(roleRequests(changes)).toEqual([
      { grant: false, role: 'applicationCreator', login: 'marie', patterns: ['ola_.*'] },
      { grant: false, role: 'terrainAdmin', login: 'paul', patterns: [] },
      { grant: true, role: 'applicationCreator', login: 'marie', patterns: ['fn_.*'] },
      { grant: true, role: 'terrainAdmin', login: 'marie', patterns: [] },
    ]);
  });

  it('find the added patterns the server would refuse, by login, stored ones aside', () => {
    let changes = addPattern({}, marie, 'fn_(.*');
    changes = addPattern(changes, marie, 'ok_.*');
    changes = addPattern(changes, paul, '[bad');
    changes = removePattern(changes, marie, 'ola_.*');
    expect(invalidPatterns(changes)).toEqual({ marie: ['fn_(.*'], paul: ['[bad'] });
    expect(invalidPatterns(addPattern({}, marie, 'ok_.*'))).toEqual({});
  });

  it('give back the changes of refused calls, to be kept on the page', () => {
    let changes = addPattern({}, marie, 'fn_.*');
    changes = removePattern(changes, marie, 'ola_.*');
    changes = toggleAdmin(changes, paul, false);
    expect(changesOf(roleRequests(changes))).toEqual(changes);
    expect(changesOf([])).toEqual({});
  });
});
