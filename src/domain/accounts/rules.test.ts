import { describe, expect, it } from 'vitest';
import {
  checkEmail,
  checkKey,
  checkLogin,
  checkPassword,
  firstBrokenRule,
  validateEmailChange,
  validatePasswordChange,
  validateRegistration,
} from './rules';
import { readAccountState } from './user';

describe('account field rules', () => {
  it('wants a login of at least four characters without spaces', () => {
    expect(checkLogin('')).toBe('required');
    expect(checkLogin('abc')).toBe('loginTooShort');
    expect(checkLogin('abcd')).toBeUndefined();
    expect(checkLogin('ab cd')).toBe('loginWhitespace');
    expect(checkLogin('a'.repeat(101))).toBe('loginTooLong');
  });

  it('accepts ordinary addresses and refuses malformed ones', () => {
    expect(checkEmail('marie.curie@inrae.fr')).toBeUndefined();
    expect(checkEmail('a@b.co')).toBeUndefined();
    expect(checkEmail("o'hara+terrain@inrae.fr")).toBeUndefined();
    for (const bad of [
      'plain',
      'a@b',
      'a b@c.de',
      '@c.de',
      'a@.de',
      'a@b..de',
      'a,b@c.de',
      'a;b@c.de',
      'Ann <a@c.de>',
      'a(x)@c.de',
      '"a"@c.de',
      'a:b@c.de',
      'a@[1.2.3.4]',
      'a\\b@c.de',
    ]) {
      expect(checkEmail(bad), bad).toBe('invalidEmail');
    }
    expect(checkEmail('  ')).toBe('required');
  });

  it('wants a new password of eight characters or more, counted as people count them', () => {
    expect(checkPassword('')).toBe('required');
    expect(checkPassword('1234567')).toBe('passwordTooShort');
    expect(checkPassword('12345678')).toBeUndefined();
    expect(checkPassword('🌲🌲🌲🌲🌲🌲🌲')).toBe('passwordTooShort');
    expect(checkPassword('🌲🌲🌲🌲🌲🌲🌲🌲')).toBeUndefined();
    expect(checkPassword('x'.repeat(1025))).toBe('passwordTooLong');
  });

  it('wants keys of exactly ten characters', () => {
    expect(checkKey('ABCDEFGHJK')).toBeUndefined();
    expect(checkKey(' abcdefghjk ')).toBeUndefined();
    expect(checkKey('ABCDEFGHJ')).toBe('keyLength');
    expect(checkKey('ABCDEFGHJKL')).toBe('keyLength');
  });

  it('reports every problem of a registration at once', () => {
    expect(validateRegistration({ login: 'ab', password: '', confirmation: 'x', email: 'nope' })).toEqual([
      { field: 'login', rule: 'loginTooShort' },
      { field: 'password', rule: 'required' },
      { field: 'confirmation', rule: 'confirmationMismatch' },
      { field: 'email', rule: 'invalidEmail' },
    ]);
    expect(validateRegistration({ login: 'abcd', password: 'pw', email: 'a@b.fr' })).toEqual([
      { field: 'password', rule: 'passwordTooShort' },
    ]);
    expect(validateRegistration({ login: 'abcd', password: 'long enough', email: 'a@b.fr' })).toEqual([]);
  });

  it('checks password and e-mail changes', () => {
    expect(validatePasswordChange({ current: '', password: 'n', confirmation: 'm' })).toEqual([
      { field: 'current', rule: 'required' },
      { field: 'password', rule: 'passwordTooShort' },
      { field: 'confirmation', rule: 'confirmationMismatch' },
    ]);
    expect(validateEmailChange({ email: 'a@b.fr', confirmation: 'a@c.fr', password: 'x' })).toEqual([
      { field: 'confirmation', rule: 'confirmationMismatch' },
    ]);
    expect(validateEmailChange({ email: 'a@b.fr', confirmation: 'a@b.fr', password: '' })).toEqual([
      { field: 'password', rule: 'required' },
    ]);
  });

  it('reads the rule a server refusal names', () => {
    expect(
      firstBrokenRule({
        fields: [
          { field: 'email', rule: 'invalidEmail' },
          { field: 'login', rule: 'loginTooShort' },
        ],
      }),
    ).toBe('invalidEmail');
    expect(firstBrokenRule({ fields: [{ field: 'x', rule: 'unheardOf' }] })).toBeUndefined();
    expect(firstBrokenRule({})).toBeUndefined();
    expect(firstBrokenRule(['a'])).toBeUndefined();
    expect(firstBrokenRule(null)).toBeUndefined();
  });

  it('reads unknown account states as idle', () => {
    expect(readAccountState('active')).toBe('active');
    expect(readAccountState('weird')).toBe('idle');
    expect(readAccountState(undefined)).toBe('idle');
  });
});
