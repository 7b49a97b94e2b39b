import { describe, expect, it } from 'vitest';
import { VERIFICATION_KEY_ALPHABET, generateVerificationKey, isWellFormedVerificationKey } from './verificationKey';

describe('verification keys', () => {
  it('are ten characters of the unambiguous alphabet', () => {
    for (let i = 0; i < 1000; i++) {
      const key = generateVerificationKey();
      expect(key).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ2-9]{10}$/);
      expect(isWellFormedVerificationKey(key)).toBe(true);
    }
    for (const ambiguous of ['O', '0', 'I', '1']) expect(VERIFICATION_KEY_ALPHABET).not.toContain(ambiguous);
  });

  it('use every character of the alphabet and rarely repeat', () => {
    const keys = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const key = generateVerificationKey();
      keys.add(key);
      for (const c of key) seen.add(c);
    }
    expect(keys.size).toBe(2000);
    expect(seen.size).toBe(VERIFICATION_KEY_ALPHABET.length);
  });

  it('refuses keys with characters outside the alphabet', () => {
    expect(isWellFormedVerificationKey('ABCDEFGHJ0')).toBe(false);
    expect(isWellFormedVerificationKey('abcdefghjk')).toBe(true);
  });
});
