import { describe, expect, it } from 'vitest';
import { checkEmail, checkKey, checkLogin, validateEmailChange, validatePasswordChange, validateRegistration } from './rules';
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
    for (const bad of ['plain', 'a@b', 'a b@c.de', '@c.de', 'a@.de', 'a@b..de']) expect(checkEmail(bad)).toBe('invalidEmail');
    expect(checkEmail('  ')).toBe('required');
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
    expect(validateRegistration({ login: 'abcd', password: 'pw', email: 'a@b.fr' })).toEqual([]);
  });

  it('checks password and e-mail changes', () => {
    expect(validatePasswordChange({ current: '', password: 'n', confirmation: 'm' })).toEqual([
      { field: 'current', rule: 'required' },
      { field: 'confirmation', rule: 'confirmationMismatch' },
    ]);
    expect(validateEmailChange({ email: 'a@b.fr', confirmation: 'a@c.fr', password: 'x' })).toEqual([
      { field: 'confirmation', rule: 'confirmationMismatch' },
    ]);
    expect(validateEmailChange({ email: 'a@b.fr', confirmation: 'a@b.fr', password: '' })).toEqual([
      { field: 'password', rule: 'required' },
    ]);
  });

  it('reads unknown account states as idle', () => {
    expect(readAccountState('active')).toBe('active');
    expect(readAccountState('weird')).toBe('idle');
    expect(readAccountState(undefined)).toBe('idle');
  });
});
