import { describe, expect, it } from 'vitest';
import { isOneMailAddress, mailAddressRule } from './address.ts';

describe('mail addresses as the transport reads them', () => {
  it('accept one plain address', () => {
    for (const address of ['marie.curie@inrae.fr', "o'hara+terrain@example.org", 'é@exämple.org'])
      expect(isOneMailAddress(address), address).toBe(true);
  });

  it('refuse lists, groups, names, comments and characters the transport drops', () => {
    for (const text of [
      'a,b@x.org',
      'a@x.org, b@y.org',
      'a;b@x.org',
      'team: a@x.org;',
      'Ann <a@x.org>',
      '<a@x.org>',
      'a(x)@x.org',
      '"a"@x.org',
      'a b@x.org',
      'a\u0001b@x.org',
      'a@x.org\u0000',
      '',
    ]) {
      expect(isOneMailAddress(text), JSON.stringify(text)).toBe(false);
    }
  });

  it('come after the account forms’ own rule', () => {
    expect(mailAddressRule(' marie.curie@inrae.fr ')).toBeUndefined();
    expect(mailAddressRule('')).toBe('required');
    expect(mailAddressRule('a@b')).toBe('invalidEmail');
    // Accepted by the simpler rule of the forms, read by the transport as another address.
    expect(mailAddressRule('a\u0001b@x.org')).toBe('invalidEmail');
  });
});
